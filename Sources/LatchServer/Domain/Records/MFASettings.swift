import Foundation

/// A tenant's multi-factor authentication policy: when a sign-in needs a second factor, and which
/// contacts may serve as one.
///
/// A second factor is a one-time code sent to one of the user's verified strong authentication
/// methods (``AuthMethod``). A user who has none registers one during the sign-in, when the client
/// declared the `registration_required` capability (Entra External ID native auth).
public struct MFASettings: Codable, Sendable, Equatable {
    /// When a second factor is required.
    public enum Policy: String, Codable, Sendable, CaseIterable {
        /// Never.
        case off
        /// At every sign-in.
        case required
        /// When a ``ConditionalAccessRule`` applies to the sign-in's client or scopes.
        case conditional
    }

    /// When a second factor is required.
    public var policy = Policy.off
    /// Whether the verified sign-in e-mail counts as a verified e-mail method. Off by default: a
    /// code to the address that a code sign-in already used proves nothing more.
    public var signInEmailIsMethod = false
    /// The channels a user may register methods on.
    public var channels: [DeliveryChannel] = [.email, .sms]
    /// Contacts no method may use: an entry starting with `+` blocks phone numbers with that
    /// prefix (`+999`), one starting with `@` blocks an e-mail domain (`@example.invalid`), any
    /// other a whole contact.
    public var blockedContacts: [String] = []
    /// The rules of ``Policy/conditional``.
    public var rules: [ConditionalAccessRule] = []

    /// The defaults: MFA off.
    public init() {}

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = MFASettings()
        policy = try container.decodeIfPresent(Policy.self, forKey: .policy) ?? defaults.policy
        signInEmailIsMethod =
            try container.decodeIfPresent(Bool.self, forKey: .signInEmailIsMethod) ?? defaults.signInEmailIsMethod
        channels = try container.decodeIfPresent([DeliveryChannel].self, forKey: .channels) ?? defaults.channels
        blockedContacts = try container.decodeIfPresent([String].self, forKey: .blockedContacts) ?? defaults.blockedContacts
        rules = try container.decodeIfPresent([ConditionalAccessRule].self, forKey: .rules) ?? defaults.rules
    }

    /// Whether `contact` (a normalized e-mail address or an E.164 number) is blocked.
    public func isBlocked(_ contact: String) -> Bool {
        let contact = contact.lowercased()
        return blockedContacts.contains { entry in
            let entry = entry.lowercased()
            if entry.hasPrefix("+") { return contact.hasPrefix(entry) }
            if entry.hasPrefix("@") { return contact.hasSuffix(entry) }
            return contact == entry
        }
    }

    /// Whether a sign-in by `clientID` for `scopes` needs a second factor.
    public func requiresSecondFactor(clientID: String, scopes: [String]) -> Bool {
        switch policy {
        case .off: false
        case .required: true
        case .conditional: rules.contains { $0.applies(clientID: clientID, scopes: scopes) }
        }
    }
}

/// A conditional-access rule: sign-ins by these clients, or for these scopes, need a second
/// factor, and (``maxAgeSeconds``) a refresh needs one proven that recently.
public struct ConditionalAccessRule: Codable, Sendable, Equatable {
    /// Scopes that need MFA; empty matches none.
    public var scopes: [String] = []
    /// Client ids that need MFA; empty matches none.
    public var clients: [String] = []
    /// The longest a second factor counts after it was proven, in seconds; 0 for the whole session.
    public var maxAgeSeconds = 0

    /// Creates a rule.
    public init(scopes: [String] = [], clients: [String] = [], maxAgeSeconds: Int = 0) {
        self.scopes = scopes
        self.clients = clients
        self.maxAgeSeconds = maxAgeSeconds
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        scopes = try container.decodeIfPresent([String].self, forKey: .scopes) ?? []
        clients = try container.decodeIfPresent([String].self, forKey: .clients) ?? []
        maxAgeSeconds = try container.decodeIfPresent(Int.self, forKey: .maxAgeSeconds) ?? 0
    }

    /// Whether the rule covers a sign-in by `clientID` for `scopes`.
    public func applies(clientID: String, scopes requested: [String]) -> Bool {
        clients.contains(clientID) || requested.contains { scopes.contains($0) }
    }
}
