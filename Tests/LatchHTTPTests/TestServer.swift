import LatchHTTP
import LatchLocking

/// A running ``HTTPServer`` on an ephemeral loopback port, shut down when the scope ends.
struct TestServer: ~Copyable {
    let server: HTTPServer

    var port: Int { server.port }

    init(
        maxBodyBytes: Int = 64 * 1024, maxHeaderBytes: Int = 16 * 1024, maxDiscardedBodyBytes: Int = 8 << 20,
        discardTimeoutSeconds: Double = 10, threadCount: Int = 4, connectionLimit: Int = 4096,
        perAddressConnectionLimit: Int = 64, headerTimeoutSeconds: Int = 10, idleTimeoutSeconds: Int = 5,
        abnormalEndingLogIntervalSeconds: Double = 60, tls: HTTPServerConfiguration.TLS? = nil,
        errorLog: @escaping @Sendable (String) -> Void = { _ in },
        routes: (inout Router) -> Void
    ) throws {
        var router = Router()
        router.errorLog = errorLog
        routes(&router)
        let configuration = HTTPServerConfiguration(
            host: "127.0.0.1", port: 0, threadCount: threadCount, maxBodyBytes: maxBodyBytes,
            maxHeaderBytes: maxHeaderBytes, maxDiscardedBodyBytes: maxDiscardedBodyBytes,
            discardTimeoutSeconds: discardTimeoutSeconds, connectionLimit: connectionLimit,
            perAddressConnectionLimit: perAddressConnectionLimit, headerTimeoutSeconds: headerTimeoutSeconds,
            idleTimeoutSeconds: idleTimeoutSeconds, abnormalEndingLogIntervalSeconds: abnormalEndingLogIntervalSeconds,
            tls: tls, errorLog: errorLog)
        server = HTTPServer(configuration: configuration, responder: router)
        try server.start()
    }

    deinit {
        server.shutdown(timeout: 2)
    }

    /// Sends one request on a fresh connection (with `Connection: close`) and reads the response.
    func send(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) throws -> RawHTTPResponse {
        try RawHTTPClient.exchange(port: port, method: method, target: target, headers: headers, body: body)
    }
}

/// Collects log lines from any thread.
final class LogCollector: Sendable {
    private let lines = Locked<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    var sink: @Sendable (String) -> Void { { [self] line in lines.withLock { $0.append(line) } } }
}
