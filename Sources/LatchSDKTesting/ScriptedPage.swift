import Foundation

/// One HTML page a ``ScriptedBrowser`` received, with its forms parsed the way a browser with
/// JavaScript off sees them.
public struct ScriptedPage: Sendable {
    /// The page's URL.
    public let url: URL
    /// The HTTP status.
    public let status: Int
    /// The response headers, names lowercased.
    public let headers: [String: String]
    /// The body as text.
    public let html: String
    /// Every `<form>` of the page, in document order.
    public let forms: [Form]

    /// One `<form>`: where it posts and what it sends.
    public struct Form: Sendable {
        /// The `id` attribute.
        public let id: String?
        /// The `action`, resolved against the page URL (the page itself when absent).
        public let action: URL
        /// The method, uppercased (`POST`, `GET`).
        public let method: String
        /// The hidden inputs (`csrf_token`, `interaction`, …) by name, with their values.
        public let hiddenFields: [String: String]
        /// The names of every input, hidden or not, in document order.
        public let fieldNames: [String]
        /// What a browser submits without the user typing: every hidden input, and every other
        /// input with a `value` (a pre-filled field, a checked box), by name.
        public let defaultValues: [String: String]
        /// The submit buttons as `(name, value)`.
        public let buttons: [Button]
    }

    /// A `<button>` (or `<input type="submit">`) with a name.
    public struct Button: Sendable, Equatable {
        /// Its `name`.
        public let name: String
        /// Its `value`.
        public let value: String

        /// A button `name` = `value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The form with this `id`, or the first form when `id` is `nil`.
    public func form(_ id: String?) -> Form? {
        guard let id else { return forms.first }
        return forms.first { $0.id == id }
    }

    /// Whether an element with this `id` is on the page (e.g. `done`, `password-error`).
    public func hasElement(id: String) -> Bool {
        html.contains("id=\"\(id)\"") || html.contains("id='\(id)'")
    }

    /// Parses `html` received from `url`.
    public init(url: URL, status: Int, headers: [String: String], html: String) {
        self.url = url
        self.status = status
        self.headers = headers
        self.html = html
        forms = HTMLScanner.forms(in: html, base: url)
    }
}

/// Just enough HTML scanning for server-rendered forms: tags and their attributes, no scripts.
enum HTMLScanner {
    private static let formPattern = try! NSRegularExpression(
        pattern: "<form\\b([^>]*)>(.*?)</form>", options: [.caseInsensitive, .dotMatchesLineSeparators])
    private static let controlPattern = try! NSRegularExpression(
        pattern: "<(input|button|textarea|select)\\b([^>]*)>", options: [.caseInsensitive])
    private static let attributePattern = try! NSRegularExpression(
        pattern: "([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\\s*=\\s*(?:\"([^\"]*)\"|'([^']*)'|([^\\s\"'>]+)))?")

    static func forms(in html: String, base: URL) -> [ScriptedPage.Form] {
        let text = html as NSString
        return formPattern.matches(in: html, range: NSRange(location: 0, length: text.length)).map { match in
            let attributes = self.attributes(text.substring(with: match.range(at: 1)))
            let body = text.substring(with: match.range(at: 2))
            let action = attributes["action"].flatMap { URL(string: $0, relativeTo: base)?.absoluteURL } ?? base
            var hidden: [String: String] = [:]
            var defaults: [String: String] = [:]
            var names: [String] = []
            var buttons: [ScriptedPage.Button] = []
            let inner = body as NSString
            for control in controlPattern.matches(in: body, range: NSRange(location: 0, length: inner.length)) {
                let tag = inner.substring(with: control.range(at: 1)).lowercased()
                let fields = self.attributes(inner.substring(with: control.range(at: 2)))
                guard let name = fields["name"] else { continue }
                let type = fields["type"]?.lowercased() ?? (tag == "button" ? "submit" : "text")
                if type == "submit" {
                    buttons.append(ScriptedPage.Button(name: name, value: fields["value"] ?? ""))
                    continue
                }
                names.append(name)
                if type == "hidden" { hidden[name] = fields["value"] ?? "" }
                let checkable = type == "checkbox" || type == "radio"
                if type == "hidden" || (!checkable && fields["value"] != nil) || (checkable && fields["checked"] != nil) {
                    defaults[name] = fields["value"] ?? (checkable ? "on" : "")
                }
            }
            return ScriptedPage.Form(
                id: attributes["id"], action: action, method: (attributes["method"] ?? "get").uppercased(),
                hiddenFields: hidden, fieldNames: names, defaultValues: defaults, buttons: buttons)
        }
    }

    /// The attributes of a tag's inside, names lowercased, values with entities decoded.
    static func attributes(_ text: String) -> [String: String] {
        let source = text as NSString
        var result: [String: String] = [:]
        for match in attributePattern.matches(in: text, range: NSRange(location: 0, length: source.length)) {
            let name = source.substring(with: match.range(at: 1)).lowercased()
            var value = ""
            for group in 2...4 where match.range(at: group).location != NSNotFound {
                value = source.substring(with: match.range(at: group))
            }
            if result[name] == nil { result[name] = decodeEntities(value) }
        }
        return result
    }

    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = text
        for (entity, character) in [
            ("&quot;", "\""), ("&#39;", "'"), ("&#x27;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&#x2F;", "/"),
            ("&#47;", "/"), ("&amp;", "&"),
        ] {
            out = out.replacingOccurrences(of: entity, with: character)
        }
        return out
    }
}
