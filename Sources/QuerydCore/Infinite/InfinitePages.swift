// The data of an infinite query: pages and their page params, kept aligned, plus the next and
// previous page params the fetcher gave with each page. Those links replace TanStack's
// getNextPageParam / getPreviousPageParam functions, which cannot cross a process boundary.

public import QuerydJSON

/// Which way a page fetch extends the list.
public enum PageDirection: String, Sendable {
    case forward, backward
}

/// The params of the pages around one page, as its fetcher reported them (nil: no such page).
public struct PageLinks: Sendable, Equatable {
    public var next: JSONValue?
    public var previous: JSONValue?

    public init(next: JSONValue?, previous: JSONValue?) {
        self.next = next
        self.previous = previous
    }

    /// Reads `nextPageParam` / `previousPageParam` from a fetcher's answer; null counts as absent.
    init(answer: JSONValue) {
        // Spelled out: a bare `nil` in a JSONValue context would be JSON null (a literal), not absence.
        next = answer["nextPageParam"].flatMap { $0.isNull ? JSONValue?.none : $0 }
        previous = answer["previousPageParam"].flatMap { $0.isNull ? JSONValue?.none : $0 }
    }
}

/// How a query pages: the param of its first page and how many pages it keeps.
public struct InfiniteOptions: Sendable, Equatable {
    public var initialPageParam: JSONValue
    /// At most this many pages are kept (nil: no limit).
    public var maxPages: Int?

    public init(initialPageParam: JSONValue, maxPages: Int?) {
        self.initialPageParam = initialPageParam
        self.maxPages = maxPages
    }
}

/// Pages with their params and links, always the same length.
struct InfinitePages: Equatable {
    var pages: [JSONValue] = []
    var params: [JSONValue] = []
    var links: [PageLinks] = []

    /// The pages of `data` (`{"pages": [...], "pageParams": [...]}` of equal length), with the given
    /// links when they line up, else links unknown (no next or previous page).
    init?(data: JSONValue, links: [PageLinks]?) {
        guard case .array(let pages)? = data["pages"], case .array(let params)? = data["pageParams"],
            pages.count == params.count
        else { return nil }
        self.pages = pages
        self.params = params
        if let links, links.count == pages.count {
            self.links = links
        } else {
            self.links = Array(repeating: PageLinks(next: nil, previous: nil), count: pages.count)
        }
    }

    init() {}

    var isEmpty: Bool { pages.isEmpty }

    var jsonValue: JSONValue { ["pages": .array(pages), "pageParams": .array(params)] }

    mutating func append(_ page: JSONValue, param: JSONValue, links: PageLinks) {
        pages.append(page)
        params.append(param)
        self.links.append(links)
    }

    mutating func prepend(_ page: JSONValue, param: JSONValue, links: PageLinks) {
        pages.insert(page, at: 0)
        params.insert(param, at: 0)
        self.links.insert(links, at: 0)
    }

    /// Drops pages beyond `maxPages`: from the front after a forward fetch, from the back after a backward one.
    mutating func trim(to maxPages: Int?, after direction: PageDirection) {
        guard let maxPages, pages.count > maxPages else { return }
        let excess = pages.count - maxPages
        switch direction {
        case .forward:
            pages.removeFirst(excess)
            params.removeFirst(excess)
            links.removeFirst(excess)
        case .backward:
            pages.removeLast(excess)
            params.removeLast(excess)
            links.removeLast(excess)
        }
    }
}
