import Foundation
import LatchServer
import LatchTesting
import Testing

/// Emulator mode (`latchd serve --emulator`): the emulator's own endpoints without credentials,
/// `Bearer owner` as administrator, and none of it otherwise (`reference/firebase-auth-protocol.md` § 7).
@Suite("Firebase: emulator mode")
struct EmulatorModeTests {
    static let emulator = "/emulator/v1/projects/default"

    @Test("DELETE …/accounts wipes the project's accounts without a credential")
    func wipe() async throws {
        try await withFirebaseAdminServer { admin in
            try await admin.create(["localId": "gone", "email": "gone@example.com"])
            var anonymous = admin
            anonymous.bearer = nil
            let reply = try await anonymous.raw("DELETE", Self.emulator + "/accounts")
            #expect(reply.status == 200)
            #expect(String(decoding: reply.body, as: UTF8.self) == "{}")
            #expect(try await admin.post("accounts:lookup", ["localId": ["gone"]])["users"] == nil)
            #expect(try await anonymous.raw("DELETE", Self.emulator + "/tenants/default/accounts").status == 200)
        }
    }

    @Test("the wipe also removes linked identities and out-of-band codes, which refer to the accounts")
    func wipeLinked() async throws {
        try await withFirebaseAdminServer { admin in
            try await admin.create(["localId": "linked", "email": "linked@example.com"])
            let tenant = try admin.server.app.services.admin.tenant(named: "default")
            try admin.server.app.services.store.write { tx in
                try tx.insert(
                    FederatedIdentity(
                        tenantID: tenant.id, providerID: "oidc.acme", rawID: "sub-linked", userID: "linked",
                        email: "linked@example.com", displayName: nil, photoURL: nil, createdAt: admin.server.clock.now()))
            }
            let link = try await admin.post(
                "accounts:sendOobCode", ["requestType": "PASSWORD_RESET", "email": "linked@example.com", "returnOobLink": true])
            #expect(link.status == 200)
            var anonymous = admin
            anonymous.bearer = nil
            let reply = try await anonymous.raw("DELETE", Self.emulator + "/accounts")
            #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
            let left = try admin.server.app.services.store.read {
                try $0.federatedIdentity(tenantID: tenant.id, providerID: "oidc.acme", rawID: "sub-linked")
            }
            #expect(left == nil)
        }
    }

    @Test("config maps improved e-mail privacy to enumeration protection and refuses duplicate e-mails")
    func config() async throws {
        try await withFirebaseAdminServer { admin in
            let initial = try await admin.raw("GET", Self.emulator + "/config")
            #expect((initial["signIn"] as? [String: Any])?["allowDuplicateEmails"] as? Bool == false)
            #expect((initial["emailPrivacyConfig"] as? [String: Any])?["enableImprovedEmailPrivacy"] as? Bool == false)
            let patched = try await admin.raw(
                "PATCH", Self.emulator + "/config", body: ["emailPrivacyConfig": ["enableImprovedEmailPrivacy": true]])
            #expect((patched["emailPrivacyConfig"] as? [String: Any])?["enableImprovedEmailPrivacy"] as? Bool == true)
            #expect(try admin.server.app.services.admin.tenant(named: "default").settings.enumerationProtection)

            try await admin.create(["localId": "hal", "email": "hal@example.com", "password": "correct horse battery"])
            let client = try FirebaseClient(admin.server)
            let wrong = try await client.post(
                FirebaseClient.v1 + "accounts:signInWithPassword",
                ["email": "hal@example.com", "password": "wrong password here", "returnSecureToken": true])
            #expect(wrong.body == Data(FirebaseClient.errorBody("INVALID_LOGIN_CREDENTIALS").utf8))

            let duplicates = try await admin.raw(
                "PATCH", Self.emulator + "/config", body: ["signIn": ["allowDuplicateEmails": true]])
            #expect(duplicates.status == 400)
            #expect(
                String(decoding: duplicates.body, as: UTF8.self)
                    == FirebaseClient.errorBody(
                        "INVALID_ARGUMENT : allowDuplicateEmails is not supported: Latch keeps e-mail addresses unique within a tenant"
                    ))
        }
    }

    @Test("oobCodes and verificationCodes answer lists; a foreign tenant segment is TENANT_NOT_FOUND")
    func codes() async throws {
        try await withFirebaseAdminServer { admin in
            let oob = try await admin.raw("GET", Self.emulator + "/oobCodes")
            #expect(String(decoding: oob.body, as: UTF8.self) == #"{"oobCodes":[]}"#)
            let sms = try await admin.raw("GET", Self.emulator + "/tenants/default/verificationCodes")
            #expect(String(decoding: sms.body, as: UTF8.self) == #"{"verificationCodes":[]}"#)
            let foreign = try await admin.raw("GET", Self.emulator + "/tenants/other/oobCodes")
            #expect(String(decoding: foreign.body, as: UTF8.self) == FirebaseClient.errorBody("TENANT_NOT_FOUND"))
            let unknown = try await admin.raw("GET", "/emulator/v1/projects/nope/config")
            #expect(unknown.status == 404)
        }
    }

    @Test("outside emulator mode the emulator endpoints do not exist")
    func absentOtherwise() async throws {
        try await withFirebaseAdminServer(emulator: false) { admin in
            try await admin.create(["localId": "kept"])
            #expect(try await admin.raw("DELETE", Self.emulator + "/accounts").status == 404)
            #expect(try await admin.raw("GET", Self.emulator + "/config").status == 404)
            #expect(try await admin.post("accounts:lookup", ["localId": ["kept"]])["users"] != nil)
        }
    }

    @Test("the banner says loudly that this is emulator mode")
    func banner() async throws {
        try await withFirebaseAdminServer { admin in
            let banner = admin.server.app.banner()
            #expect(banner.contains("EMULATOR MODE"))
            #expect(banner.contains("UNSIGNED custom"))
            #expect(banner.contains("Bearer owner"))
        }
        try await withFirebaseAdminServer(emulator: false) { admin in
            #expect(!admin.server.app.banner().contains("EMULATOR MODE"))
        }
    }
}
