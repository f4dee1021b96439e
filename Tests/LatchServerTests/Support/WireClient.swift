import Foundation
import LatchTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A decoded HTTP answer: status, headers and the JSON object body (empty if not JSON).
struct WireResponse: @unchecked Sendable {  // JSON values from JSONSerialization are immutable plists
    let status: Int
    let headers: [String: String]
    let json: [String: Any]
    let body: Data

    subscript(key: String) -> Any? { json[key] }
    func string(_ key: String) -> String? { json[key] as? String }
    var error: String? { string("error") }
    var suberror: String? { string("suberror") }
    var errorCodes: [Int] { (json["error_codes"] as? [Any])?.compactMap { ($0 as? NSNumber)?.intValue } ?? [] }
    var continuationToken: String? { string("continuation_token") }
    /// The body's member names, sorted.
    var keys: [String] { json.keys.sorted() }
}

/// Speaks the native-auth wire to a ``LatchTestServer``: over real HTTP, or straight to its
/// responder when the server runs in process.
struct WireClient: Sendable {
    let baseURL: String
    var tenant = "default"
    var clientID = "latch-dev"
    /// Set for an in-process server: requests skip the socket.
    private let inProcess: LatchTestServer?
    /// The peer address an in-process server sees (distinct clients in limit tests).
    var remoteAddress = "127.0.0.1"

    init(_ server: LatchTestServer, tenant: String = "default", clientID: String = "latch-dev") {
        baseURL = server.baseURL
        self.tenant = tenant
        self.clientID = clientID
        inProcess = server.mode == .inProcess ? server : nil
    }

    init(baseURL: String) {
        self.baseURL = baseURL
        inProcess = nil
    }

    /// POSTs a form to `/{tenant}/{path}` with `client_id` added.
    func post(_ path: String, _ form: [String: String], headers: [String: String] = [:]) async throws -> WireResponse {
        var fields = form
        if fields["client_id"] == nil { fields["client_id"] = clientID }
        let body = fields.sorted { $0.key < $1.key }.map { "\(Self.encode($0.key))=\(Self.encode($0.value))" }
            .joined(separator: "&")
        return try await raw(
            "POST", "/\(tenant)/\(path)", body: Data(body.utf8),
            headers: ["Content-Type": "application/x-www-form-urlencoded"].merging(headers) { $1 })
    }

    /// Sends any request to an absolute path.
    func raw(_ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:]) async throws -> WireResponse {
        if let inProcess {
            let answer = await inProcess.send(
                method: method, target: path, headers: headers.map { ($0.key, $0.value) }, body: Array(body ?? Data()),
                remoteAddress: remoteAddress)
            let data = Data(answer.body)
            let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
            return WireResponse(status: answer.status, headers: answer.headers, json: json, body: data)
        }
        var request = URLRequest(url: URL(string: baseURL + path)!)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var headerFields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            headerFields[String(describing: name).lowercased()] = String(describing: value)
        }
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return WireResponse(status: http.statusCode, headers: headerFields, json: json, body: data)
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
