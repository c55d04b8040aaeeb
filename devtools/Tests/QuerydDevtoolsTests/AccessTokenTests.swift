// The devtools' token: random, 64 hex digits, matched exactly, presented by query parameter or Bearer header.

import QuerydDevtools
import Testing

@Suite struct AccessTokenTests {
    @Test func isSixtyFourHexDigitsAndNewEachTime() {
        let first = AccessToken()
        let second = AccessToken()
        #expect(first.text.count == 64)
        #expect(first.text.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(first.text != second.text)
    }

    @Test func matchesOnlyItself() {
        let token = AccessToken()
        #expect(token.matches(token.text))
        #expect(!token.matches(String(token.text.dropLast())))
        #expect(!token.matches(token.text + "0"))
        #expect(!token.matches(""))
        let last = token.text.last!
        #expect(!token.matches(token.text.dropLast() + (last == "0" ? "1" : "0")))
    }

    @Test func isPresentedByQueryOrBearer() {
        #expect(AccessToken.presented(query: "a=1&token=abc&b=2", authorization: nil) == "abc")
        #expect(AccessToken.presented(query: nil, authorization: "Bearer abc") == "abc")
        #expect(AccessToken.presented(query: nil, authorization: "bearer  abc") == "abc")
        #expect(AccessToken.presented(query: "mytoken=abc", authorization: "Basic abc") == nil)
        #expect(AccessToken.presented(query: nil, authorization: nil) == nil)
    }
}
