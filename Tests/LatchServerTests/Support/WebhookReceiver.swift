import Foundation
import LatchHTTP
import LatchLocking

/// A real HTTP listener on an ephemeral loopback port standing in for an SMS gateway: it keeps
/// every request POSTed to `/sms` and answers each with the status its `answer` picks. Shut down
/// by ``stop()``.
final class WebhookReceiver: Sendable {
    /// One request as it arrived.
    struct Received: Sendable {
        /// The header fields, by lower-cased name.
        let headers: [String: String]
        let body: [UInt8]
        /// The status it was answered with.
        let status: Int

        /// The body as a JSON object of strings.
        var json: [String: String] {
            (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: String]) ?? [:]
        }
        /// The `to` member.
        var to: String { json["to"] ?? "" }
    }

    private let server: HTTPServer
    /// The requests so far, shared with the route.
    private let requests = Locked<[Received]>([])

    /// The URL to configure as the webhook.
    var url: String { "http://127.0.0.1:\(server.port)/sms" }

    /// Starts listening.
    /// - Parameter answer: the status for a request, given its JSON body and how many requests
    ///   came before it.
    init(answer: @escaping @Sendable (_ json: [String: String], _ earlier: Int) -> Int = { _, _ in 200 }) throws {
        let requests = self.requests
        var router = Router()
        router.errorLog = { _ in }
        router.add("POST", "/sms") { request in
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.lowercased()] = field.value }
            let json = (try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: String]) ?? [:]
            let status = requests.withLock { requests -> Int in
                let status = answer(json, requests.count)
                requests.append(Received(headers: headers, body: request.body, status: status))
                return status
            }
            return .text(status, status == 200 ? "queued" : "try later")
        }
        server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threadCount: 2, errorLog: { _ in }),
            responder: router)
        try server.start()
    }

    /// A receiver that answers its first requests with `script`, in order, and 200 afterwards.
    convenience init(script: [Int]) throws {
        try self.init { _, earlier in earlier < script.count ? script[earlier] : 200 }
    }

    /// Every request so far, in order.
    var received: [Received] { requests.withLock { $0 } }

    /// Stops listening.
    func stop() { server.shutdown(timeout: 2) }
}
