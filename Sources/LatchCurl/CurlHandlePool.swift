internal import LatchLocking

/// Idle easy handles of one ``CurlHTTPClient``, so consecutive requests reuse a connection (and its
/// TLS session) instead of opening a new one each time: an easy handle keeps its connection cache
/// across curl_easy_reset(3). At most ``capacity`` handles wait; more are cleaned up.
final class CurlHandlePool: Sendable {
    private let idle = Locked<[CurlEasyHandle]>([])
    /// The most handles kept idle.
    let capacity: Int

    init(capacity: Int = 4) {
        self.capacity = capacity
    }

    /// An idle handle, reset, or a new one; `nil` when libcurl cannot make one.
    func take() -> CurlEasyHandle? {
        let handle = idle.withLock { $0.popLast() } ?? CurlEasyHandle()
        handle?.reset()
        return handle
    }

    /// Returns `handle` once its transfer is over.
    func put(_ handle: CurlEasyHandle) {
        idle.withLock { handles in
            if handles.count < capacity { handles.append(handle) }
        }
    }
}
