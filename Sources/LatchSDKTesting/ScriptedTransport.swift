import Foundation
import Latch
internal import LatchLocking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An ``HTTPTransport`` that answers from a script instead of a server, and records every request,
/// so app tests run on a simulator or in a plain unit-test bundle with no server at all.
///
/// Responses are queued per path suffix (`"/oauth2/v2.0/token"` matches `/default/oauth2/v2.0/token`);
/// each request takes the first queued response of the first matching path, and the last one left
/// answers every further request. A request no script matches fails with
/// `URLError(.resourceUnavailable)`, which the SDK reports as a network error.
///
/// ```swift
/// let script = ScriptedTransport()
/// script.respond(to: "/oauth2/v2.0/initiate", json: #"{"continuation_token":"ct-1"}"#)
/// let client = try LatchClient(configuration: LatchPreview.configuration(transport: script.transport))
/// ```
public final class ScriptedTransport: Sendable {
    /// One request the SDK sent.
    public struct Request: Sendable {
        /// The HTTP method.
        public let method: String
        /// The URL path, e.g. `/default/oauth2/v2.0/token`.
        public let path: String
        /// The request headers.
        public let headers: [String: String]
        /// The form fields of the body (`application/x-www-form-urlencoded`).
        public let form: [String: String]
        /// The query items of the URL, e.g. `["key": "…"]` for the Firebase-style API's requests.
        public let query: [String: String]
        /// The raw body.
        public let body: Data
        /// The body as a JSON object (the Firebase-style API's requests), or `nil` when it is not one.
        public var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        }
        /// The `client-request-id` header: the flow's correlation id.
        public var correlationID: String? { headers.first { $0.key.lowercased() == "client-request-id" }?.value }
    }

    /// A scripted answer.
    public struct Response: Sendable {
        /// The HTTP status.
        public var status: Int
        /// The body.
        public var body: Data
        /// The response headers.
        public var headers: [String: String]

        /// Creates a response.
        public init(status: Int = 200, body: Data, headers: [String: String] = ["Content-Type": "application/json"]) {
            self.status = status
            self.body = body
            self.headers = headers
        }

        /// A JSON response with `json` as its body.
        public static func json(_ json: String, status: Int = 200) -> Response {
            Response(status: status, body: Data(json.utf8))
        }

        /// An OAuth error response (RFC 6749 § 5.2) with an optional native-auth `suberror`.
        public static func oauthError(_ error: String, suberror: String? = nil, status: Int = 400) -> Response {
            var object: [String: Any] = ["error": error, "error_description": "Scripted \(error)."]
            if let suberror { object["suberror"] = suberror }
            let body = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
            return Response(status: status, body: body)
        }
    }

    private struct State {
        var script: [(suffix: String, responses: [Response])] = []
        var requests: [Request] = []
    }

    private let state = Locked(State())

    /// Creates a transport with an empty script.
    public init() {}

    /// Queues `response` for requests whose path ends with `suffix`.
    public func respond(to suffix: String, with response: Response) {
        let suffix = suffix.hasPrefix("/") ? suffix : "/" + suffix
        state.withLock { state in
            if let index = state.script.firstIndex(where: { $0.suffix == suffix }) {
                state.script[index].responses.append(response)
            } else {
                state.script.append((suffix, [response]))
            }
        }
    }

    /// Queues a JSON response for requests whose path ends with `suffix`.
    public func respond(to suffix: String, status: Int = 200, json: String) {
        respond(to: suffix, with: .json(json, status: status))
    }

    /// Drops the responses queued for `suffix`, the one left to answer every further request
    /// included, so the next ``respond(to:with:)`` for it is the next answer.
    public func clear(_ suffix: String) {
        let suffix = suffix.hasPrefix("/") ? suffix : "/" + suffix
        state.withLock { state in state.script.removeAll { $0.suffix == suffix } }
    }

    /// Every request so far, oldest first.
    public var requests: [Request] { state.withLock { $0.requests } }

    /// The requests whose path ends with `suffix`.
    public func requests(to suffix: String) -> [Request] { requests.filter { $0.path.hasSuffix(suffix) } }

    /// The transport to put in a ``LatchConfiguration``.
    public var transport: HTTPTransport {
        HTTPTransport { [self] request in
            guard let url = request.url else { throw URLError(.badURL) }
            let recorded = Request(
                method: request.httpMethod ?? "GET", path: url.path, headers: request.allHTTPHeaderFields ?? [:],
                form: Self.form(request.httpBody), query: Self.query(url), body: request.httpBody ?? Data())
            let response = state.withLock { state -> Response? in
                state.requests.append(recorded)
                guard let index = state.script.firstIndex(where: { recorded.path.hasSuffix($0.suffix) }) else { return nil }
                let responses = state.script[index].responses
                if responses.count > 1 { state.script[index].responses.removeFirst() }
                return responses.first
            }
            guard let response,
                let http = HTTPURLResponse(
                    url: url, statusCode: response.status, httpVersion: "HTTP/1.1", headerFields: response.headers)
            else { throw URLError(.resourceUnavailable) }
            return (response.body, http)
        }
    }

    /// The query items of `url`.
    private static func query(_ url: URL) -> [String: String] {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return Dictionary(items.map { ($0.name, $0.value ?? "") }) { $1 }
    }

    /// The fields of a form body.
    private static func form(_ body: Data?) -> [String: String] {
        guard let body, let text = String(data: body, encoding: .utf8) else { return [:] }
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }
}
