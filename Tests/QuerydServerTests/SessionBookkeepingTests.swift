// The session's bookkeeping types on their own: `DeferredReplies` (waiting client requests by id)
// and `OutgoingRequests` (server-to-client requests and the attempt each carries, both ways).

import QuerydCore
import QuerydJSON
import QuerydRPC
import Testing

@testable import QuerydServer

@Suite struct SessionBookkeepingTests {
    private func reply(_ id: RPCID) -> PendingReply { PendingReply(id: id, link: SessionLink(), batch: nil, slot: 0) }

    private let id1 = RPCID.number(JSONNumber(1))
    private let id3 = RPCID.number(JSONNumber(3))
    private let idTwo = RPCID.string("two")

    @Test func deferredRepliesAreKeptByIdUpToTheLimit() {
        var deferred = DeferredReplies()
        let one = reply(id1)
        let two = reply(idTwo)
        #expect(deferred.isEmpty)
        let addedOne = deferred.add(one, id: id1, limit: 2)
        let addedTwo = deferred.add(two, id: idTwo, limit: 2)
        let addedThree = deferred.add(reply(id3), id: id3, limit: 2)
        #expect(addedOne && addedTwo && !addedThree)
        #expect(deferred.count == 2)
        #expect(deferred.contains(idTwo))
        #expect(!deferred.contains(id3))
        #expect(deferred[id1] === one)
        // A reply under an id already waiting replaces it, even at the limit.
        let again = reply(id1)
        let addedAgain = deferred.add(again, id: id1, limit: 2)
        #expect(addedAgain)
        #expect(deferred[id1] === again)
        #expect(deferred.count == 2)
    }

    @Test func finishingForgetsOnlyTheReplyWaitingUnderItsId() {
        var deferred = DeferredReplies()
        let waiting = reply(id1)
        _ = deferred.add(waiting, id: id1, limit: 10)
        deferred.finish(reply(id1))
        #expect(deferred[id1] === waiting)
        deferred.finish(waiting)
        #expect(deferred.isEmpty)
        _ = deferred.add(waiting, id: id1, limit: 10)
        _ = deferred.add(reply(id3), id: id3, limit: 10)
        #expect(deferred.all.count == 2)
        let removed = deferred.removeAll()
        #expect(Set(removed.compactMap(\.id)) == [id1, id3])
        #expect(deferred.isEmpty)
    }

    @Test func outgoingRequestsMapAttemptsToRequestsBothWays() {
        var outgoing = OutgoingRequests()
        let fetch = OutgoingAttempt.fetch(AttemptID(5))
        let mutate = OutgoingAttempt.mutate(MutationAttemptID(5))
        let fetchRequest = outgoing.open(fetch)
        let mutateRequest = outgoing.open(mutate)
        #expect(fetchRequest == 1 && mutateRequest == 2)
        #expect(outgoing.count == 2)
        #expect(outgoing.attempt(forRequest: 1) == fetch)
        #expect(outgoing.attempt(forRequest: 2) == mutate)
        #expect(outgoing.attempt(forRequest: 3) == nil)
        // An answer forgets the request and its attempt; a second answer finds nothing.
        let answered = outgoing.answered(2)
        let answeredAgain = outgoing.answered(2)
        let withdrawnAfterAnswer = outgoing.withdraw(mutate)
        #expect(answered == mutate && answeredAgain == nil && withdrawnAfterAnswer == nil)
        // A withdrawn attempt's request is forgotten; a late answer to it finds nothing.
        let withdrawn = outgoing.withdraw(fetch)
        let lateAnswer = outgoing.answered(1)
        #expect(withdrawn == 1 && lateAnswer == nil)
        #expect(outgoing.count == 0)
    }

    @Test func outgoingRequestIdsAreNotReusedAfterAClose() {
        var outgoing = OutgoingRequests()
        _ = outgoing.open(.fetch(AttemptID(1)))
        outgoing.removeAll()
        #expect(outgoing.count == 0)
        #expect(outgoing.attempt(forRequest: 1) == nil)
        let next = outgoing.open(.fetch(AttemptID(1)))
        #expect(next == 2)
    }
}
