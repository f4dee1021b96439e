import Foundation

/// What a flow's steps have collected, stored as one JSON value beside the flow's identity columns.
///
/// The stored form carries a version (`"v"`); ``FlowStateCodec`` writes the current one and refuses
/// a newer one with a clear error, so a rolled-back server never misreads a flow a newer one wrote.
/// Members absent from the JSON take their defaults, so adding a member needs no new version.
public struct FlowState: Sendable, Equatable {
    /// A one-time code waiting to be submitted.
    public struct PendingCode: Codable, Sendable, Equatable {
        /// Hex SHA-256 of flow id + code.
        public var hash: String
        /// When the code stops being accepted.
        public var expiresAt: Date
        /// Wrong submissions of this code.
        public var attempts: Int

        /// Creates a pending code.
        public init(hash: String, expiresAt: Date, attempts: Int = 0) {
            self.hash = hash
            self.expiresAt = expiresAt
            self.attempts = attempts
        }
    }

    /// The credentials the client said it can collect.
    public var support: ChallengeSupport
    /// The capabilities the client declared.
    public var capabilities: ClientCapabilities
    /// Sign-up: the Argon2id hash of the chosen password, if one was given.
    public var passwordHash: String?
    /// Sign-up: attributes collected so far.
    public var attributes: [String: String]
    /// The current one-time code, if one is outstanding.
    public var code: PendingCode?
    /// One-time codes issued in this flow, real or decoy; capped at
    /// ``TenantSettings/codeSendsPerWindow``.
    public var codeSends: Int
    /// Wrong passwords submitted in this flow (sign-in).
    public var passwordAttempts: Int
    /// Whether the username was proven with a code in this flow.
    public var emailVerified: Bool
    /// Authentication methods proven (RFC 8176): `pwd`, `otp`, `sms`, `mfa`.
    public var amr: [String]
    /// Second factor and method registration: the scopes of the sign-in that needs them, granted
    /// when it finishes (MSAL drops the app's scopes on the grant after registration).
    public var scopes: [String] = []
    /// Second factor: the method the last code went to.
    public var methodID: String?
    /// Method registration: the contact being registered, and its channel.
    public var registration: PendingContact?
    /// Second factor: the first factor came through a trusted device (``DeviceTrust``), so its
    /// code sends are not held to the per-address cap that strangers can use up.
    public var trustedDevice = false
    /// Second factor: that trusted device's token payload (ids and times, no MAC: not a
    /// credential), so the sign-in that ends the flow renews that device's token and clears that
    /// device's count, whether or not the last grant presents the token again.
    public var trustedDevicePayload: [UInt8]?
    /// A step-up: the session whose refresh needs the second factor, and the hash of the refresh
    /// token presented, rotated when the step-up finishes.
    public var stepUp: StepUp?

    /// The session a step-up raises.
    public struct StepUp: Codable, Sendable, Equatable {
        /// The token family (`sid`).
        public var familyID: String
        /// Hex SHA-256 of the refresh token presented.
        public var refreshTokenHash: String

        /// Creates a step-up.
        public init(familyID: String, refreshTokenHash: String) {
            self.familyID = familyID
            self.refreshTokenHash = refreshTokenHash
        }
    }

    /// A contact a code went to, or that is being registered.
    public struct PendingContact: Codable, Sendable, Equatable {
        /// How its codes travel.
        public var channel: DeliveryChannel
        /// The normalized e-mail address or E.164 number.
        public var target: String

        /// Creates a contact.
        public init(channel: DeliveryChannel, target: String) {
            self.channel = channel
            self.target = target
        }
    }

    /// Creates a state.
    public init(
        support: ChallengeSupport, capabilities: ClientCapabilities = [], passwordHash: String? = nil,
        attributes: [String: String] = [:], code: PendingCode? = nil, codeSends: Int = 0, passwordAttempts: Int = 0,
        emailVerified: Bool = false, amr: [String] = []
    ) {
        self.support = support
        self.capabilities = capabilities
        self.passwordHash = passwordHash
        self.attributes = attributes
        self.code = code
        self.codeSends = codeSends
        self.passwordAttempts = passwordAttempts
        self.emailVerified = emailVerified
        self.amr = amr
    }
}

extension FlowState: Codable {
    private enum CodingKeys: String, CodingKey {
        case support, capabilities, passwordHash, attributes, code, codeSends, passwordAttempts, emailVerified, amr
        case scopes, methodID, registration, stepUp, trustedDevice, trustedDevicePayload
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        support = ChallengeSupport(rawValue: try container.decodeIfPresent(Int.self, forKey: .support) ?? 0)
        capabilities = ClientCapabilities(rawValue: try container.decodeIfPresent(Int.self, forKey: .capabilities) ?? 0)
        passwordHash = try container.decodeIfPresent(String.self, forKey: .passwordHash)
        attributes = try container.decodeIfPresent([String: String].self, forKey: .attributes) ?? [:]
        code = try container.decodeIfPresent(PendingCode.self, forKey: .code)
        codeSends = try container.decodeIfPresent(Int.self, forKey: .codeSends) ?? 0
        passwordAttempts = try container.decodeIfPresent(Int.self, forKey: .passwordAttempts) ?? 0
        emailVerified = try container.decodeIfPresent(Bool.self, forKey: .emailVerified) ?? false
        amr = try container.decodeIfPresent([String].self, forKey: .amr) ?? []
        scopes = try container.decodeIfPresent([String].self, forKey: .scopes) ?? []
        methodID = try container.decodeIfPresent(String.self, forKey: .methodID)
        registration = try container.decodeIfPresent(PendingContact.self, forKey: .registration)
        stepUp = try container.decodeIfPresent(StepUp.self, forKey: .stepUp)
        trustedDevice = try container.decodeIfPresent(Bool.self, forKey: .trustedDevice) ?? false
        trustedDevicePayload = try container.decodeIfPresent([UInt8].self, forKey: .trustedDevicePayload)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(support.rawValue, forKey: .support)
        try container.encode(capabilities.rawValue, forKey: .capabilities)
        try container.encodeIfPresent(passwordHash, forKey: .passwordHash)
        try container.encode(attributes, forKey: .attributes)
        try container.encodeIfPresent(code, forKey: .code)
        try container.encode(codeSends, forKey: .codeSends)
        try container.encode(passwordAttempts, forKey: .passwordAttempts)
        try container.encode(emailVerified, forKey: .emailVerified)
        try container.encode(amr, forKey: .amr)
        if !scopes.isEmpty { try container.encode(scopes, forKey: .scopes) }
        try container.encodeIfPresent(methodID, forKey: .methodID)
        try container.encodeIfPresent(registration, forKey: .registration)
        try container.encodeIfPresent(stepUp, forKey: .stepUp)
        if trustedDevice { try container.encode(trustedDevice, forKey: .trustedDevice) }
        try container.encodeIfPresent(trustedDevicePayload, forKey: .trustedDevicePayload)
    }
}

/// The credentials a client can collect natively, declared by it once per flow.
public struct ChallengeSupport: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    /// Creates a set from its stored value.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The client can ask for a password.
    public static let password = ChallengeSupport(rawValue: 1)
    /// The client can ask for a one-time code sent out of band.
    public static let oneTimeCode = ChallengeSupport(rawValue: 2)
    /// The client can fall back to a browser.
    public static let browser = ChallengeSupport(rawValue: 4)
}

/// What a client says it can handle beyond the basic flows.
public struct ClientCapabilities: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    /// Creates a set from its stored value.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The client can run a second factor natively.
    public static let mfa = ClientCapabilities(rawValue: 1)
    /// The client can register a strong authentication method natively.
    public static let registration = ClientCapabilities(rawValue: 2)
}

/// Reads and writes the stored form of ``FlowState``: `{"v": 1, "state": {…}}`, dates as integer
/// milliseconds since the Unix epoch.
public enum FlowStateCodec {
    /// The version this server writes and the newest it reads.
    public static let currentVersion = 1

    /// Why a stored state could not be read.
    public enum DecodingError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The state was written by a newer server.
        case unsupportedVersion(Int)
        /// The text is not a state of any known version.
        case malformed

        public var description: String {
            switch self {
            case .unsupportedVersion(let version):
                "flow state version \(version) is newer than this server understands (\(FlowStateCodec.currentVersion))"
            case .malformed: "flow state is not readable"
            }
        }
    }

    private struct Envelope: Codable {
        var v: Int
        var state: FlowState?
    }

    /// The stored text of `state`.
    public static func encode(_ state: FlowState) -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(Envelope(v: currentVersion, state: state))) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// The state stored as `text`.
    /// - Throws: ``DecodingError``.
    public static func decode(_ text: String) throws(DecodingError) -> FlowState {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        guard let envelope = try? decoder.decode(Envelope.self, from: Data(text.utf8)) else { throw .malformed }
        guard envelope.v <= currentVersion else { throw .unsupportedVersion(envelope.v) }
        guard envelope.v >= 1, let state = envelope.state else { throw .malformed }
        return state
    }
}
