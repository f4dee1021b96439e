import Foundation
import LatchCrypto
import LatchHTTP

/// One request to the hosted pages: the tenant, the browser's cookies, the language, and the
/// cookies the answer sets.
struct PageCall {
    let request: HTTPRequest
    let tenant: Tenant
    /// The pages are served over HTTPS: cookies get `Secure`.
    let secure: Bool
    /// The anti-forgery binding: the browser's `latch_csrf` cookie, or a new one.
    let binding: String
    /// The binding was made for this answer (a `Set-Cookie` goes with it).
    let newBinding: Bool
    /// The browser's `latch_browser` cookie, if it has one.
    var browser: String?
    var cookies: [String] = []
    var text: PageText

    /// The cookie holding the anti-forgery binding.
    static let bindingCookie = "latch_csrf"
    /// The cookie naming the browser's sessions (single sign-on).
    static let browserCookie = "latch_browser"

    init(request: HTTPRequest, tenant: Tenant, secure: Bool, locales: [String] = []) {
        self.request = request
        self.tenant = tenant
        self.secure = secure
        let existing = Self.cookie(Self.bindingCookie, in: request)
        binding = existing ?? SecureRandom.token(byteCount: 32)
        newBinding = existing == nil
        browser = Self.cookie(Self.browserCookie, in: request)
        text = PageText.choose(locales + PageText.tags(acceptLanguage: request.headers["Accept-Language"]))
        if newBinding { cookies.append(cookieHeader(Self.bindingCookie, binding, maxAge: nil)) }
    }

    /// The tenant's path prefix, `/{tenant}`.
    var tenantPath: String { "/\(tenant.name)" }

    /// Sets the browser cookie to `value` (a sign-in renews it: OWASP's "renew the session id
    /// after any privilege level change", so a value planted before the sign-in is worth nothing).
    mutating func setBrowserCookie(_ value: String) {
        browser = value
        cookies.append(cookieHeader(Self.browserCookie, value, maxAge: tenant.settings.browserSessionLifetime))
    }

    /// Clears the browser cookie (logout).
    mutating func clearBrowserCookie() {
        cookies.append(cookieHeader(Self.browserCookie, "", maxAge: 0))
    }

    /// A `Set-Cookie` value (RFC 6265 § 4.1): scoped to the tenant's paths, `HttpOnly`,
    /// `SameSite=Lax` (the redirect back from a client's authorization request is a top-level
    /// navigation, which Lax lets through), and `Secure` under TLS.
    func cookieHeader(_ name: String, _ value: String, maxAge: Int?) -> String {
        var cookie = "\(name)=\(value); Path=\(tenantPath)/; HttpOnly; SameSite=Lax"
        if let maxAge { cookie += "; Max-Age=\(maxAge)" }
        if secure { cookie += "; Secure" }
        return cookie
    }

    /// The value of cookie `name` in the request's `Cookie` headers (RFC 6265 § 5.4), when it is
    /// 32–128 base64url characters.
    static func cookie(_ name: String, in request: HTTPRequest) -> String? {
        for header in request.headers.values(for: "Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name else { continue }
                let value = parts[1].trimmingCharacters(in: .whitespaces)
                let urlSafe = value.utf8.allSatisfy { byte in
                    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                        || byte == 0x2D || byte == 0x5F
                }
                if (32...128).contains(value.utf8.count), urlSafe { return value }
            }
        }
        return nil
    }
}
