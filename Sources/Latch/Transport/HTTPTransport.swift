import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How the SDK sends HTTP requests: a value holding one async function, so tests and apps can
/// inject their own (a stub, a pinned `URLSession`, a proxy).
public struct HTTPTransport: Sendable {
    /// Sends a request and returns the body and response; throws `URLError` on network failure.
    public let send: @Sendable (URLRequest) async throws -> (Data, URLResponse)

    /// Wraps a send function.
    public init(send: @escaping @Sendable (URLRequest) async throws -> (Data, URLResponse)) {
        self.send = send
    }

    /// `URLSession.shared`.
    public static let urlSession = HTTPTransport { request in try await URLSession.shared.data(for: request) }
}
