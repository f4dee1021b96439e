#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// Identifies the calling OS thread, to reject re-entrant writes that would otherwise deadlock.
struct ThreadID: Equatable {
    private let raw: pthread_t

    static var current: ThreadID { ThreadID(raw: pthread_self()) }

    static func == (a: ThreadID, b: ThreadID) -> Bool { pthread_equal(a.raw, b.raw) != 0 }
}
