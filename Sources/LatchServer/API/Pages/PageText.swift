import Foundation

/// The words of the hosted pages in one language. English, Polish and Hebrew (right to left) are
/// built in; the locale comes from `ui_locales` (OpenID Connect Core § 3.1.2.1), then from
/// `Accept-Language` (RFC 9110 § 12.5.4), then English.
struct PageText: Sendable {
    var code: String
    var rightToLeft = false
    var signInTitle: String
    var signInLead: String
    var email: String
    var password: String
    var signIn: String
    var sendCode: String
    var createAccount: String
    var forgotPassword: String
    var codeTitle: String
    var codeLead: String
    var code6: String
    var verify: String
    var mfaTitle: String
    var mfaLead: String
    var registerTitle: String
    var registerLead: String
    var contact: String
    var channelEmail: String
    var channelSMS: String
    var sendCodeButton: String
    var signUpTitle: String
    var signUpButton: String
    var resetTitle: String
    var resetLead: String
    var newPasswordTitle: String
    var newPassword: String
    var save: String
    var chooserTitle: String
    var useAnother: String
    var consentTitle: String
    var consentLead: String
    var allow: String
    var deny: String
    var deviceTitle: String
    var deviceLead: String
    var userCode: String
    var continueButton: String
    var deviceConfirmTitle: String
    var deviceConfirmLead: String
    var deviceDoneTitle: String
    var deviceDone: String
    var deviceDenied: String
    var signedOutTitle: String
    var signedOut: String
    var logoutTitle: String
    var logoutLead: String
    var signOut: String
    var errorTitle: String
    var expired: String
    var forged: String
    var badClient: String
    var badRedirect: String
    var wrongPassword: String
    var wrongCode: String
    var noAccount: String
    var accountExists: String
    var disabled: String
    var tooMany: String
    var required: String
    var invalidValue: String
    var weakPassword: String
    var invalidUserCode: String
    var delivery: String
    var redirecting: String
    var continueToApp: String
    var skipToContent: String
    var scopeOpenID: String
    var scopeProfile: String
    var scopeEmail: String
    var scopeOffline: String

    /// The supported locales, preferred first when nothing is asked for.
    static let supported = ["en", "pl", "he"]

    /// The text for the first supported tag of `tags` (a region or script is ignored: `pl-PL` is
    /// `pl`), else English.
    static func choose(_ tags: [String]) -> PageText {
        for tag in tags {
            let language = tag.split(separator: "-").first.map { $0.lowercased() } ?? ""
            switch language {
            case "pl": return .polish
            case "he", "iw": return .hebrew
            case "en": return .english
            default: continue
            }
        }
        return .english
    }

    /// The language tags of an `Accept-Language` value, by descending `q` (RFC 9110 § 12.5.4).
    static func tags(acceptLanguage: String?) -> [String] {
        guard let acceptLanguage, acceptLanguage.utf8.count <= 512 else { return [] }
        var weighted: [(String, Double)] = []
        for item in acceptLanguage.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = parts.first, !tag.isEmpty else { continue }
            var q = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                q = Double(parameter.dropFirst(2)) ?? 0
            }
            if q > 0 { weighted.append((tag, q)) }
        }
        return weighted.enumerated().sorted { ($0.element.1, -$0.offset) > ($1.element.1, -$1.offset) }.map(\.element.0)
    }
}
