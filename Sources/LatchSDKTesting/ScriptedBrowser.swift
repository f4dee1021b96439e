import Foundation
import Latch
internal import LatchLocking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A "browser" for tests of interactive sign-in (``LatchClient/acquireToken(parameters:)``) and of
/// the hosted pages: it sends the authorization request over HTTP, follows 301/302/303/307
/// redirects itself, keeps the cookies the server sets, parses each page's forms (action and
/// hidden inputs such as `csrf_token`), and answers each page with the next step of its script:
/// fill fields by name and press a named button, or close the window. When a redirect reaches the
/// redirect URI, it requests that URL as a real browser would: the SDK's loopback listener
/// receives it over a socket.
///
/// ```swift
/// let browser = ScriptedBrowser(steps: [
///     .submit(form: "signin", ["username": "ada@example.com", "password": password],
///             button: "action", value: "password"),
/// ])
/// let result = try await client.acquireToken(parameters: LatchInteractiveParameters(browser: browser))
/// ```
///
/// Steps are consumed across calls, and cookies persist, so a second ``open(_:redirectURI:)``
/// with no steps left tests single sign-on. ``run(from:)`` drives pages outside a sign-in (the
/// device verification page).
public final class ScriptedBrowser: LatchWebBrowser {
    /// One answer to a page.
    public struct Step: Sendable {
        enum Action: Sendable {
            case submit(form: String?, fields: [String: String], button: ScriptedPage.Button?)
            case close
            case abandon
        }

        let act: @Sendable (ScriptedPage) async throws -> Action

        /// Submits the form with id `form` (the first form when `nil`): what a browser sends
        /// unprompted (hidden inputs, pre-filled fields), then `fields`, then the button `button` =
        /// `value` when given.
        public static func submit(
            form: String? = nil, _ fields: [String: String] = [:], button: String? = nil, value: String? = nil
        ) -> Step {
            submit(form: form, button: button, value: value) { _ in fields }
        }

        /// Submits a form whose fields are known only when the page is shown (a code from the
        /// outbox): `fields` is called with the page.
        public static func submit(
            form: String? = nil, button: String? = nil, value: String? = nil,
            fields: @escaping @Sendable (ScriptedPage) async throws -> [String: String]
        ) -> Step {
            Step { page in
                let pressed = button.map { ScriptedPage.Button(name: $0, value: value ?? "") }
                return .submit(form: form, fields: try await fields(page), button: pressed)
            }
        }

        /// Closes the window: ``ScriptedBrowser/open(_:redirectURI:)`` throws
        /// ``LatchError/Code/userCanceled``, as a closed `ASWebAuthenticationSession` does.
        public static let close = Step { _ in .close }

        /// Leaves the page open and does nothing more (the user walked away): the sign-in ends
        /// when its timeout passes.
        public static let abandon = Step { _ in .abandon }
    }

    /// Why a scripted run stopped without reaching its goal.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public let message: String
        /// The last page received, if any.
        public let page: ScriptedPage?
        public var description: String {
            message + (page.map { " at \($0.url) (HTTP \($0.status)):\n\($0.html.prefix(2000))" } ?? "")
        }
    }

    private struct State {
        var steps: [Step]
        var cookies: [String: String] = [:]
        var pages: [ScriptedPage] = []
        var redirects: [URL] = []
        var callbackPages: [ScriptedPage] = []
        var requests: [(method: String, url: URL)] = []
    }

    private let state: Locked<State>
    private let transport: HTTPTransport
    /// Extra headers sent with every request (e.g. `Accept-Language: he`).
    public let headers: [String: String]
    /// A private-use-scheme redirect URI this browser captures itself, or `nil` for the loopback listener.
    public let redirectURI: URL?

    /// A browser that answers pages with `steps`, in order.
    /// - Parameters:
    ///   - transport: how it reaches the server; it must not follow redirects itself (the
    ///     in-process transport of a `LatchTestServer` does not). `nil`: `URLSession` with redirects
    ///     handed back and no cookie store.
    ///   - headers: sent with every request.
    ///   - redirectURI: set to capture a private-use-scheme redirect instead of using the listener.
    public init(
        steps: [Step] = [], transport: HTTPTransport? = nil, headers: [String: String] = [:], redirectURI: URL? = nil
    ) {
        state = Locked(State(steps: steps))
        self.transport = transport ?? Self.direct
        self.headers = headers
        self.redirectURI = redirectURI
    }

    /// Appends steps to the script.
    public func enqueue(_ steps: [Step]) {
        state.withLock { $0.steps += steps }
    }

    /// The pages received so far (status 200 and error pages), in order.
    public var pages: [ScriptedPage] { state.withLock { $0.pages } }
    /// The redirects to the redirect URI reached so far.
    public var redirects: [URL] { state.withLock { $0.redirects } }
    /// What the loopback listener answered to each redirect.
    public var callbackPages: [ScriptedPage] { state.withLock { $0.callbackPages } }
    /// The cookies held, by name.
    public var cookies: [String: String] { state.withLock { $0.cookies } }
    /// Every request sent, in order.
    public var requests: [(method: String, url: URL)] { state.withLock { $0.requests } }

    /// Drives the authorization request `url` until a redirect reaches `redirectURI`.
    /// - Returns: ``LatchBrowserOutcome/redirected(_:)`` for a private-use-scheme redirect;
    ///   ``LatchBrowserOutcome/awaitingRedirect`` after requesting an `http` redirect URI (the
    ///   listener has it) or after an ``Step/abandon`` step.
    /// - Throws: ``LatchError/Code/userCanceled`` after a ``Step/close`` step; ``Failure`` when the
    ///   script runs out on a page, or a page cannot be answered.
    public func open(_ url: URL, redirectURI: URL) async throws -> LatchBrowserOutcome {
        switch try await navigate(URLRequest(url: url), until: redirectURI) {
        case .redirect(let target):
            state.withLock { $0.redirects.append(target) }
            guard target.scheme == "http" || target.scheme == "https" else { return .redirected(target) }
            let (data, response) = try await Self.direct.send(request(for: target))
            let http = response as? HTTPURLResponse
            let page = ScriptedPage(
                url: target, status: http?.statusCode ?? 0, headers: Self.headers(of: http),
                html: String(decoding: data, as: UTF8.self))
            state.withLock { $0.callbackPages.append(page) }
            return .awaitingRedirect
        case .page(let page):
            throw Failure(message: "The script ended before the redirect", page: page)
        case .abandoned:
            return .awaitingRedirect
        }
    }

    /// Drives pages from `url` until the script runs out, and returns the last page (e.g. the
    /// device page's "done" page).
    /// - Throws: ``LatchError/Code/userCanceled`` after a ``Step/close`` step; ``Failure``.
    @discardableResult
    public func run(from url: URL) async throws -> ScriptedPage {
        switch try await navigate(URLRequest(url: url), until: nil) {
        case .page(let page): return page
        case .redirect(let target): throw Failure(message: "Unexpected redirect to \(target)", page: nil)
        case .abandoned: throw Failure(message: "The script abandoned the page", page: pages.last)
        }
    }

    private enum Stop {
        case redirect(URL)
        case page(ScriptedPage)
        case abandoned
    }

    private func navigate(_ first: URLRequest, until redirectURI: URL?) async throws -> Stop {
        var next = first
        for _ in 0..<50 {
            guard let url = next.url else { throw Failure(message: "A request without a URL", page: nil) }
            if let redirectURI, Self.reaches(url, redirectURI) { return .redirect(url) }
            let (data, response) = try await transport.send(request(from: next))
            guard let http = response as? HTTPURLResponse else { throw Failure(message: "Not an HTTP response", page: nil) }
            let fields = Self.headers(of: http)
            storeCookies(fields["set-cookie"])
            if [301, 302, 303, 307, 308].contains(http.statusCode), let location = fields["location"] {
                guard let target = URL(string: location, relativeTo: url)?.absoluteURL else {
                    throw Failure(message: "An unreadable Location '\(location)'", page: nil)
                }
                next = URLRequest(url: target)
                continue
            }
            let page = ScriptedPage(
                url: url, status: http.statusCode, headers: fields, html: String(decoding: data, as: UTF8.self))
            state.withLock { $0.pages.append(page) }
            let step = state.withLock { state -> Step? in state.steps.isEmpty ? nil : state.steps.removeFirst() }
            guard let step else { return .page(page) }
            switch try await step.act(page) {
            case .close:
                throw LatchError(code: .userCanceled, message: "The user closed the browser.")
            case .abandon:
                return .abandoned
            case .submit(let id, let values, let button):
                guard let form = page.form(id) else {
                    throw Failure(message: "No form '\(id ?? "(first)")' on the page", page: page)
                }
                if let button, !form.buttons.contains(button) {
                    throw Failure(message: "No button \(button.name)=\(button.value) in form '\(id ?? "")'", page: page)
                }
                var body = form.defaultValues.merging(values) { $1 }
                if let button { body[button.name] = button.value }
                next = Self.submission(form, body)
            }
        }
        throw Failure(message: "More than 50 requests without reaching the goal", page: pages.last)
    }

    /// Whether `url` is the redirect URI (any query or fragment).
    private static func reaches(_ url: URL, _ redirectURI: URL) -> Bool {
        let text = url.absoluteString
        let prefix = redirectURI.absoluteString
        guard text.hasPrefix(prefix) else { return false }
        let rest = text.dropFirst(prefix.count)
        return rest.isEmpty || rest.hasPrefix("?") || rest.hasPrefix("#")
    }

    private static func submission(_ form: ScriptedPage.Form, _ fields: [String: String]) -> URLRequest {
        let encoded = fields.sorted { $0.key < $1.key }.map { "\(formEscape($0.key))=\(formEscape($0.value))" }
            .joined(separator: "&")
        if form.method == "GET" {
            var components = URLComponents(url: form.action, resolvingAgainstBaseURL: false)!
            components.percentEncodedQuery = encoded
            return URLRequest(url: components.url!)
        }
        var request = URLRequest(url: form.action)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(encoded.utf8)
        return request
    }

    private static let formSafe: CharacterSet = {
        var set = CharacterSet.alphanumerics
        set.insert(charactersIn: "-._*")
        return set
    }()

    private static func formEscape(_ text: String) -> String {
        (text.addingPercentEncoding(withAllowedCharacters: formSafe) ?? text)
    }

    /// `base` with the cookies, the extra headers and a browser's `Accept`.
    private func request(from base: URLRequest) -> URLRequest {
        var request = base
        request.setValue("text/html,application/xhtml+xml", forHTTPHeaderField: "Accept")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let cookies = state.withLock { $0.cookies }
        if !cookies.isEmpty {
            request.setValue(
                cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; "),
                forHTTPHeaderField: "Cookie")
        }
        state.withLock { $0.requests.append((request.httpMethod ?? "GET", request.url!)) }
        return request
    }

    private func request(for url: URL) -> URLRequest {
        request(from: URLRequest(url: url))
    }

    /// Keeps the cookies of one (possibly folded) `Set-Cookie` header; an empty value or
    /// `Max-Age=0` deletes one.
    private func storeCookies(_ header: String?) {
        guard let header else { return }
        for cookie in Self.splitCookies(header) {
            let attributes = cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let pair = attributes.first, let equals = pair.firstIndex(of: "=") else { continue }
            let name = String(pair[..<equals])
            let value = String(pair[pair.index(after: equals)...])
            let expired = attributes.dropFirst().contains { $0.lowercased() == "max-age=0" }
            state.withLock { state in
                if value.isEmpty || expired { state.cookies.removeValue(forKey: name) } else { state.cookies[name] = value }
            }
        }
    }

    /// Splits a folded `Set-Cookie` value at the commas that start a new cookie (not those in an
    /// `Expires` date).
    static func splitCookies(_ header: String) -> [String] {
        var cookies: [String] = []
        for piece in header.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = piece.trimmingCharacters(in: .whitespaces)
            let startsCookie = trimmed.range(of: "^[^=;\\s]+=", options: .regularExpression) != nil
            let previousIsDate =
                cookies.last.map { $0.range(of: "(?i)expires=\\w{3}$", options: .regularExpression) != nil } ?? false
            if startsCookie, !previousIsDate || cookies.isEmpty {
                cookies.append(trimmed)
            } else if let last = cookies.popLast() {
                cookies.append(last + "," + piece)
            }
        }
        return cookies
    }

    private static func headers(of response: HTTPURLResponse?) -> [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in response?.allHeaderFields ?? [:] {
            guard let name = name as? String, let value = value as? String else { continue }
            fields[name.lowercased()] = value
        }
        return fields
    }

    /// `URLSession` that hands redirects back, keeps no cookies and uses no proxy.
    public static let direct: HTTPTransport = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.connectionProxyDictionary = [:]
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
        return HTTPTransport { request in
            try await withCheckedThrowingContinuation { continuation in
                session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let response {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }.resume()
            }
        }
    }()

    private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }
}
