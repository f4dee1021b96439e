import Foundation
import LatchCrypto
import LatchSDKTesting
import LatchTesting
import LatchWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A scripted browser for the hosted pages: keeps cookies, never follows redirects on its own,
/// reads a page's form (action and hidden fields) and posts it with fields filled in. Over a
/// socket for a live server, in process otherwise.
final class PageBrowser: @unchecked Sendable {  // used by one test task at a time
    struct Page {
        var status: Int
        var headers: [String: String]
        var html: String
        /// The `Location` of a redirect.
        var location: String? { headers["location"] }
        /// The query items of the redirect's `Location`.
        var redirectQuery: [String: String] {
            guard let location, let items = URLComponents(string: location)?.queryItems else { return [:] }
            return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        }
        /// The page's forms, read by the SDK's scripted-browser parser.
        var parsed: ScriptedPage {
            ScriptedPage(url: URL(string: "http://page.invalid/")!, status: status, headers: headers, html: html)
        }
        /// The `id` of the page's first form.
        var formID: String? { parsed.forms.first?.id }
        /// The first form's `action`, as a path with its query.
        var formAction: String? {
            guard let action = parsed.forms.first?.action,
                let components = URLComponents(url: action, resolvingAgainstBaseURL: false)
            else { return nil }
            return components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        }
        /// The first form's hidden fields.
        var hidden: [String: String] { parsed.forms.first?.hiddenFields ?? [:] }
        /// The `<h1>`.
        var title: String? { Self.first(#"<h1 id="title">([^<]*)</h1>"#, in: html) }
        /// The href of link `id`.
        func link(_ id: String) -> String? { Self.first(#"id="\#(id)" href="([^"]+)""#, in: html).map(Self.unescape) }
        /// The error text tied to `field`.
        func error(_ field: String) -> String? {
            Self.first(#"id="\#(field)-error" role="alert">([^<]*)<"#, in: html).map(Self.unescape)
        }

        static func first(_ pattern: String, in text: String) -> String? {
            let regex = try! NSRegularExpression(pattern: pattern)
            guard let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                let range = Range(match.range(at: 1), in: text)
            else { return nil }
            return String(text[range])
        }

        static func unescape(_ text: String) -> String {
            text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&amp;", with: "&")
        }
    }

    let server: LatchTestServer
    let tenant: String
    /// Cookies by name.
    var cookies: [String: String] = [:]
    /// Every `Set-Cookie` value received.
    var setCookies: [String] = []
    var acceptLanguage: String?
    var remoteAddress = "127.0.0.1"
    private let session: URLSession
    private let refuser = RedirectRefuser()

    init(_ server: LatchTestServer, tenant: String = "default") {
        self.server = server
        self.tenant = tenant
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration, delegate: refuser, delegateQueue: nil)
    }

    deinit { session.invalidateAndCancel() }

    /// The authorization request URL path for `parameters`.
    func authorizePath(_ parameters: [String: String]) -> String {
        "/\(tenant)/oauth2/v2.0/authorize?" + Self.form(parameters)
    }

    func get(_ target: String) async throws -> Page { try await send("GET", target, body: nil) }

    func post(_ target: String, _ fields: [String: String]) async throws -> Page {
        try await send("POST", target, body: Data(Self.form(fields).utf8))
    }

    /// Posts `page`'s form with its hidden fields and `fields`.
    func submit(_ page: Page, _ fields: [String: String]) async throws -> Page {
        guard let action = page.formAction else { throw BrowserError.noForm(page.html) }
        return try await post(action, page.hidden.merging(fields) { $1 })
    }

    private func send(_ method: String, _ target: String, body: Data?) async throws -> Page {
        var headers: [(String, String)] = []
        if !cookies.isEmpty {
            headers.append(("Cookie", cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")))
        }
        if body != nil { headers.append(("Content-Type", "application/x-www-form-urlencoded")) }
        if let acceptLanguage { headers.append(("Accept-Language", acceptLanguage)) }
        let page: Page
        if server.mode == .inProcess {
            let answer = await server.send(
                method: method, target: target, headers: headers, body: Array(body ?? Data()), remoteAddress: remoteAddress)
            page = Page(status: answer.status, headers: answer.headers, html: String(decoding: answer.body, as: UTF8.self))
        } else {
            var request = URLRequest(url: URL(string: server.baseURL + target)!)
            request.httpMethod = method
            request.httpBody = body
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            let (data, response) = try await session.data(for: request)
            let http = response as! HTTPURLResponse
            var fields: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                fields[String(describing: name).lowercased()] = String(describing: value)
            }
            page = Page(status: http.statusCode, headers: fields, html: String(decoding: data, as: UTF8.self))
        }
        if let header = page.headers["set-cookie"] {
            for cookie in header.components(separatedBy: ", ") {
                setCookies.append(cookie)
                let pair = cookie.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
                guard let name = pair.first.map(String.init) else { continue }
                let value = pair.count > 1 ? String(pair[1]) : ""
                if value.isEmpty || cookie.contains("Max-Age=0") { cookies[name] = nil } else { cookies[name] = value }
            }
        }
        return page
    }

    static func form(_ fields: [String: String]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return fields.sorted { $0.key < $1.key }
            .map {
                "\($0.key.addingPercentEncoding(withAllowedCharacters: allowed)!)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed)!)"
            }
            .joined(separator: "&")
    }

    enum BrowserError: Error { case noForm(String) }
}

/// Keeps URLSession from following redirects: the test reads each one.
private final class RedirectRefuser: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

/// A PKCE pair (RFC 7636 § 4.1, § 4.2).
struct PKCE {
    let verifier: String
    let challenge: String

    init() {
        verifier = SecureRandom.token(byteCount: 32)
        challenge = Base64URL.encode(Digest.sha256(Array(verifier.utf8)))
    }
}
