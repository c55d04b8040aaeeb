// The plan of one fetch of an infinite query: which page params to ask for, in what order, and
// how the answers combine with the stored pages.
//
// - A refetch (subscribe while stale, invalidate, refetch, ...) fetches every stored page again,
//   one after another, starting from the first stored page param and using each fresh page's
//   next param for the one after; if that chain ends early the list gets shorter. The stored
//   pages are replaced only when the whole refetch succeeds. With no pages it loads the first.
// - A next (previous) page fetch asks for the last page's next (first page's previous) param
//   and appends (prepends) the page, dropping pages beyond maxPages from the other end.
// Retries resume at the page that failed: pages already fetched in this run are kept.

import QuerydJSON

/// One infinite fetch in progress.
struct PageFetch {
    /// What the fetch does.
    enum Kind: Equatable {
        case refetch(pageCount: Int)
        case page(PageDirection)
    }

    let kind: Kind
    let maxPages: Int?
    /// The stored pages when the fetch started (extended by a page fetch; replaced by a refetch).
    let base: InfinitePages
    /// The param of the page to ask for next.
    private(set) var param: JSONValue
    /// Pages fetched so far by a refetch.
    private(set) var fetched = InfinitePages()

    /// The plan for a refetch of `stored` (or a first load when there are none).
    static func refetch(_ stored: InfinitePages?, options: InfiniteOptions) -> PageFetch {
        guard let stored, let first = stored.params.first else {
            return PageFetch(
                kind: .refetch(pageCount: 1), maxPages: options.maxPages, base: InfinitePages(),
                param: options.initialPageParam)
        }
        let count = options.maxPages.map { min($0, stored.pages.count) } ?? stored.pages.count
        return PageFetch(kind: .refetch(pageCount: count), maxPages: options.maxPages, base: stored, param: first)
    }

    /// The plan for one more page in `direction`, or nil when the stored pages say there is none.
    static func page(_ direction: PageDirection, of stored: InfinitePages, options: InfiniteOptions) -> PageFetch? {
        let link =
            switch direction {
            case .forward: stored.links.last?.next
            case .backward: stored.links.first?.previous
            }
        guard let link else { return nil }
        return PageFetch(kind: .page(direction), maxPages: options.maxPages, base: stored, param: link)
    }

    private init(kind: Kind, maxPages: Int?, base: InfinitePages, param: JSONValue) {
        self.kind = kind
        self.maxPages = maxPages
        self.base = base
        self.param = param
    }

    /// The direction sent to the fetcher with the current param.
    var direction: PageDirection {
        if case .page(let direction) = kind { return direction }
        return .forward
    }

    /// The fetch direction recorded in the query state (nil for a refetch).
    var stateDirection: PageDirection? {
        if case .page(let direction) = kind { return direction }
        return nil
    }

    /// Whether the fetch (re)loads the whole list and has no page of it yet: a whole list fetched
    /// elsewhere can answer it (a page fetch extends the stored pages, so only its own page can).
    var loadsWholeList: Bool {
        if case .refetch = kind { return fetched.isEmpty }
        return false
    }

    /// Takes one page answer; returns the finished pages, or nil when another page is to be fetched.
    mutating func receive(_ page: JSONValue, links: PageLinks) -> InfinitePages? {
        switch kind {
        case .page(let direction):
            var result = base
            if direction == .forward {
                result.append(page, param: param, links: links)
            } else {
                result.prepend(page, param: param, links: links)
            }
            result.trim(to: maxPages, after: direction)
            return result
        case .refetch(let pageCount):
            fetched.append(page, param: param, links: links)
            guard fetched.pages.count < pageCount, let next = links.next else { return fetched }
            param = next
            return nil
        }
    }
}
