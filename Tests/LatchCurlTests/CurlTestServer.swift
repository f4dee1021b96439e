import Foundation
import LatchCrypto
import LatchHTTP
import LatchLocking

/// An ``HTTPServer`` on an ephemeral loopback port for the client tests, over HTTPS with a
/// certificate from a fresh ``DevelopmentCertificateAuthority`` (whose certificate is written to
/// ``certificateAuthorityFile``) or over plain HTTP. Shut down and its files removed by ``stop()``.
final class CurlTestServer: Sendable {
    let server: HTTPServer
    /// The CA file a client must trust, for HTTPS.
    let certificateAuthorityFile: String
    private let directory: String
    /// Set by ``stop()``: `/slow` handlers still sleeping answer at once, so shutdown need not wait.
    private let stopping: Stopping

    /// The stop signal `/slow` handlers watch.
    final class Stopping: Sendable {
        let flag = Locked<Bool>(false)
    }

    /// `https://127.0.0.1:PORT` or `http://127.0.0.1:PORT`.
    var origin: String { "\(server.scheme)://127.0.0.1:\(server.port)" }

    /// `origin` + `path`.
    func url(_ path: String) -> URL { URL(string: origin + path)! }

    init(tls: Bool = true, routes: (inout Router) -> Void) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("latch-curl-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        certificateAuthorityFile = directory + "/ca.pem"
        let authority = try DevelopmentCertificateAuthority.generate()
        try Data(authority.certificatePEM.utf8).write(to: URL(fileURLWithPath: certificateAuthorityFile))
        let leaf = try authority.issueServerCertificate()
        var router = Router()
        router.errorLog = { _ in }
        routes(&router)
        let stopping = Stopping()
        self.stopping = stopping
        // `/slow/{milliseconds}` answers after that long, or when the server stops.
        router.add("GET", "/slow/{milliseconds}") { request in
            let deadline = Date().addingTimeInterval(Double(request.pathParameters["milliseconds"] ?? "").map { $0 / 1000 } ?? 0)
            while Date() < deadline, !stopping.flag.load() { Thread.sleep(forTimeInterval: 0.02) }
            return .text(200, "slow")
        }
        let configuration = HTTPServerConfiguration(
            host: "127.0.0.1", port: 0, threadCount: 4, idleTimeoutSeconds: 5,
            tls: tls
                ? HTTPServerConfiguration.TLS(certificateChainPEM: leaf.certificatePEM, privateKeyPEM: leaf.privateKeyPEM) : nil,
            errorLog: { _ in })
        server = HTTPServer(configuration: configuration, responder: router)
        try server.start()
    }

    func stop() {
        stopping.flag.store(true)
        server.shutdown(timeout: 2)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Routes every test uses: `/echo` (any method) answers 201 with a JSON object of what it got and
    /// an `X-Reply` header; `/status/{code}` answers that status; `/redirect` answers 302 to `/echo`;
    /// `/slow/{milliseconds}` (added by the server itself) answers after that long, or at ``stop()``.
    static func standardRoutes(_ router: inout Router) {
        for method in ["GET", "POST", "PUT", "PATCH", "DELETE"] {
            router.add(method, "/echo") { request in
                let object: [String: String] = [
                    "method": request.method, "body": String(decoding: request.body, as: UTF8.self),
                    "x-test": request.headers["X-Test"] ?? "", "content-type": request.headers["Content-Type"] ?? "",
                    "expect": request.headers["Expect"] ?? "",
                ]
                let body = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                return HTTPResponse(
                    status: 201, headers: HTTPHeaders([("Content-Type", "application/json"), ("X-Reply", "yes")]),
                    body: Array(body))
            }
        }
        router.add("GET", "/status/{code}") { request in
            .text(Int(request.pathParameters["code"] ?? "") ?? 500, "status")
        }
        router.add("GET", "/redirect") { _ in
            HTTPResponse(status: 302, headers: HTTPHeaders([("Location", "/echo")]), body: Array("moved".utf8))
        }
    }
}
