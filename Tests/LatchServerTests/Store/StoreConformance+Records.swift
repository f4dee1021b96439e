import Foundation
import LatchServer
import Testing

// MARK: - Records the conformance tests store

extension StoreConformance {
    /// `milliseconds` after the Unix epoch. Stores keep dates to the millisecond, so every date the
    /// tests store is one of these.
    static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    /// The tests' "now", with a non-zero millisecond part.
    static let now = date(1_700_000_000_123)

    /// Settings that differ from the defaults in every kind of member.
    static var customSettings: TenantSettings {
        var settings = TenantSettings()
        settings.enumerationProtection = true
        settings.requiredAttributes = [
            AttributeDefinition(name: "displayName"), AttributeDefinition(name: "city", required: false, regex: "[A-Z][a-z]+"),
        ]
        settings.passwordRequiredOnSignUp = true
        settings.refreshReuseGraceSeconds = 7
        settings.codeLength = 6
        settings.signInDelayMaxSeconds = 1200
        return settings
    }

    static func tenant(_ name: String = "acme", id: String? = nil) -> Tenant {
        Tenant(id: id ?? "tid-\(name)", name: name, settings: customSettings, createdAt: now)
    }

    static func client(_ id: String = "app", tenantID: String, name: String = "The App") -> Client {
        Client(
            id: id, tenantID: tenantID, name: name, isPublic: false, allowedScopes: ["api.read", "api.write"],
            createdAt: date(1_700_000_001_456))
    }

    static func user(
        _ id: String = "user-1", email: String = "ada@example.com", tenantID: String, createdAt: Date = now
    ) -> User {
        User(
            id: id, tenantID: tenantID, email: email, emailVerified: true,
            passwordHash: "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
            displayName: "Ada Lovelace", attributes: ["displayName": "Ada Lovelace", "city": "London"], disabled: false,
            createdAt: createdAt, validSince: date(1_700_000_002_789))
    }

    /// A state with every member set away from its default, including a pending code with a date.
    static var flowState: FlowState {
        FlowState(
            support: [.password, .oneTimeCode], capabilities: [.mfa, .registration],
            passwordHash: "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$Zmxvdw",
            attributes: ["displayName": "Ada", "city": "Zürich \"quoted\""],
            code: FlowState.PendingCode(hash: "code-hash", expiresAt: date(1_700_000_600_321), attempts: 2), codeSends: 3,
            passwordAttempts: 1, emailVerified: true, amr: ["pwd", "otp"])
    }

    static func flow(
        _ id: String = "flow-1", tokenHash: String = "token-hash-1", tenantID: String = "tid-acme",
        expiresAt: Date = date(1_700_000_600_999)
    ) -> Flow {
        Flow(
            id: id, tenantID: tenantID, clientID: "app", kind: .signUp, step: .codeSent, tokenHash: tokenHash,
            username: "ada@example.com", userID: "user-1", state: flowState, expiresAt: expiresAt, createdAt: now)
    }

    static func family(
        _ id: String = "family-1", userID: String = "user-1", tenantID: String = "tid-acme",
        expiresAt: Date = date(1_707_776_000_123)
    ) -> TokenFamily {
        TokenFamily(
            id: id, tenantID: tenantID, clientID: "app", userID: userID, scopes: ["openid", "offline_access", "api.read"],
            amr: ["pwd", "otp"], authTime: date(1_699_999_999_001), createdAt: now, expiresAt: expiresAt)
    }

    /// A stored message whose sealed body is opaque bytes (the store never interprets them), or
    /// none with `sealed: false`. Its message id is unique per tenant, recipient and creation time.
    static func message(
        to recipient: String = "ada@example.com", tenantID: String = "tid-acme", sealed: Bool = true,
        createdAt: Date = now
    ) -> StoredOutboxMessage {
        let milliseconds = Int64((createdAt.timeIntervalSince1970 * 1000).rounded())
        return StoredOutboxMessage(
            messageID: "message-\(tenantID)-\(recipient)-\(milliseconds)", tenantID: tenantID, recipient: recipient,
            subject: "Your code", sealedBody: sealed ? Array("sealed for \(recipient)".utf8) + [0, 255, 7] : nil,
            createdAt: createdAt)
    }

    static func signingKey(_ id: String, tenantID: String = "tid-acme", createdAt: Date, activatesAt: Date) -> StoredSigningKey {
        StoredSigningKey(
            id: id, tenantID: tenantID, algorithm: "ES256", sealedPrivateKey: Array("sealed \(id)".utf8) + [0, 255, 7],
            createdAt: createdAt, activatesAt: activatesAt)
    }

    /// Stores the tenant `acme` and its user `user-1`, which most tests build on.
    @discardableResult
    static func seed(_ store: any Store) throws -> (tenant: Tenant, user: User) {
        let tenant = tenant()
        let user = user(tenantID: tenant.id)
        try store.write { tx throws in
            try tx.insert(tenant)
            try tx.insert(user)
        }
        return (tenant, user)
    }
}

// MARK: - Expectations

extension StoreConformance {
    /// An error of the tests' own, to check a failing write body's error comes back unchanged.
    struct Marker: Error, Equatable {
        let id: Int
    }

    /// Expects `body` to throw ``StoreError/conflict``.
    static func expectConflict(
        _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record(
                "expected StoreError.conflict, nothing was thrown. \(comment.map { "\($0)" } ?? "")",
                sourceLocation: sourceLocation)
        } catch StoreError.conflict {
        } catch {
            Issue.record(
                "expected StoreError.conflict, got \(error). \(comment.map { "\($0)" } ?? "")", sourceLocation: sourceLocation)
        }
    }
}
