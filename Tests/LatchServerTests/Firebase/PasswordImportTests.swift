import Foundation
import LatchServer
import LatchTesting
import Testing

/// `accounts:batchCreate` (`import_users`): up to 1000 accounts per call with per-account
/// failures in a 200 body, and the hash options firebase-admin sends
/// (`reference/firebase-auth-protocol.md` § 6).
@Suite("Firebase: account import")
struct PasswordImportTests {
    private static func base64(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }

    @Test("accounts without passwords are imported whole; the others are reported by index")
    func importWithoutPasswords() async throws {
        try await withFirebaseAdminServer { admin in
            try await admin.create(["localId": "exists", "email": "taken@example.com"])
            let reply = try await admin.post(
                "accounts:batchCreate",
                [
                    "users": [
                        [
                            "localId": "imp-1", "email": "Imp1@Example.com", "emailVerified": true, "displayName": "Imp",
                            "photoUrl": "https://example.com/i.png", "disabled": true,
                            "customAttributes": #"{"plan":"gold"}"#, "createdAt": 1_500_000_000_000,
                            "lastLoginAt": 1_600_000_000_000,
                        ],
                        ["localId": "exists"],
                        ["email": "no-id@example.com"],
                        ["localId": "imp-2", "email": "bad address"],
                        ["localId": "imp-3", "email": "taken@example.com"],
                        ["localId": "imp-4", "customAttributes": #"{"iss":"x"}"#],
                        ["localId": "imp-1"],
                    ]
                ])
            #expect(reply.status == 200)
            let errors = try #require(reply["error"] as? [[String: Any]])
            #expect(errors.map { $0["index"] as? Int } == [1, 2, 3, 4, 5, 6])
            #expect(errors.first?["message"] as? String == "localId: an account with this id exists")
            #expect(errors[3]["message"] as? String == "email: another account has this address")
            #expect(errors[4]["message"] as? String == "customAttributes: the claim iss is reserved")
            let record = try await admin.user("imp-1")
            #expect(record["email"] as? String == "imp1@example.com")
            #expect(record["emailVerified"] as? Bool == true)
            #expect(record["disabled"] as? Bool == true)
            #expect(record["displayName"] as? String == "Imp")
            #expect(record["photoUrl"] as? String == "https://example.com/i.png")
            #expect(record["customAttributes"] as? String == #"{"plan":"gold"}"#)
            #expect(record["createdAt"] as? String == "1500000000000")
            #expect(record["lastLoginAt"] as? String == "1600000000000")
        }
    }

    @Test("an algorithm the server cannot verify refuses that account only, saying why without the hash")
    func unsupportedAlgorithm() async throws {
        try await withFirebaseAdminServer { admin in
            let reply = try await admin.post(
                "accounts:batchCreate",
                [
                    "hashAlgorithm": "MD5", "rounds": 1,
                    "users": [
                        [
                            "localId": "hashed", "email": "hashed@example.com", "passwordHash": Self.base64([1, 2, 3]),
                            "salt": "c2FsdA==",
                        ],
                        ["localId": "plain"],
                    ],
                ])
            #expect(reply.status == 200)
            let errors = try #require(reply["error"] as? [[String: Any]])
            #expect(errors.count == 1)
            #expect(errors.first?["index"] as? Int == 0)
            let message = try #require(errors.first?["message"] as? String)
            #expect(message.hasPrefix("passwordHash: "), "\(message)")
            #expect(!message.contains("AQID"))
            #expect(try await admin.post("accounts:lookup", ["localId": ["plain"]])["users"] != nil)
            #expect(try await admin.post("accounts:lookup", ["localId": ["hashed"]])["users"] == nil)
        }
    }

    @Test("malformed hash options refuse the whole request")
    func malformedOptions() async throws {
        try await withFirebaseAdminServer { admin in
            let user: [String: Any] = ["localId": "h", "passwordHash": "AAAA"]
            let cases: [([String: Any], String)] = [
                ([:], "hashAlgorithm is required to import password hashes"),
                (["hashAlgorithm": "ROT13"], "hashAlgorithm is not a known algorithm"),
                (["hashAlgorithm": "SCRYPT", "rounds": 8, "memoryCost": 14], "signerKey is required for SCRYPT"),
                (
                    ["hashAlgorithm": "SCRYPT", "signerKey": "a2V5", "rounds": 9, "memoryCost": 14],
                    "rounds must be between 1 and 8"
                ),
                (
                    ["hashAlgorithm": "SCRYPT", "signerKey": "a2V5", "rounds": 8, "memoryCost": 15],
                    "memoryCost must be between 1 and 14"
                ),
                (["hashAlgorithm": "SCRYPT", "signerKey": "!!", "rounds": 8, "memoryCost": 14], "signerKey is not base64"),
                (["hashAlgorithm": "HMAC_SHA256"], "signerKey is required for HMAC_SHA256"),
                (["hashAlgorithm": "PBKDF2_SHA256", "rounds": 120_001], "rounds must be between 0 and 120000"),
            ]
            for (options, why) in cases {
                var body = options
                body["users"] = [user]
                let reply = try await admin.post("accounts:batchCreate", body)
                #expect(
                    String(decoding: reply.body, as: UTF8.self) == FirebaseClient.errorBody("INVALID_HASH_ALGORITHM : \(why)"))
            }
            #expect(try await admin.post("accounts:lookup", ["localId": ["h"]])["users"] == nil)
        }
    }

    @Test("the hash options' ranges follow firebase-admin's")
    func optionRanges() throws {
        _ = try ImportHashOptions(algorithm: "BCRYPT")
        _ = try ImportHashOptions(algorithm: "SCRYPT", signerKey: [1], rounds: 1, memoryCost: 1)
        _ = try ImportHashOptions(algorithm: "MD5", rounds: 0)
        #expect(throws: AuthFailure.accountAdministration(.invalidHashOptions("rounds must be between 1 and 8192"))) {
            try ImportHashOptions(algorithm: "SHA256", rounds: 0)
        }
        #expect(throws: AuthFailure.accountAdministration(.invalidHashOptions("dkLen is required for STANDARD_SCRYPT"))) {
            try ImportHashOptions(algorithm: "STANDARD_SCRYPT", memoryCost: 1024, parallelization: 1, blockSize: 8)
        }
    }

    @Test("more than 1000 accounts is refused; 1000 in a 150 KB body over a socket is imported")
    func batchLimits() async throws {
        try await withFirebaseAdminServer { admin in
            let tooMany = (0...1000).map { ["localId": "x\($0)"] }
            let reply = try await admin.post("accounts:batchCreate", ["users": tooMany])
            #expect(
                String(decoding: reply.body, as: UTF8.self)
                    == FirebaseClient.errorBody("INVALID_ARGUMENT : at most 1000 accounts may be named in one request"))
        }
        let server = try LatchTestServer.start(mode: .live) { $0.emulator = true }
        defer { server.stop() }
        let users = (0..<1000).map { index -> [String: Any] in
            [
                "localId": "bulk-\(index)", "email": "bulk\(index)@example.com", "displayName": "Bulk user \(index)",
                "customAttributes": #"{"cohort":"2026"}"#,
            ]
        }
        let body = try JSONSerialization.data(withJSONObject: ["users": users])
        #expect(body.count > 64 * 1024)
        let admin = FirebaseAdminClient(server)
        let reply = try await admin.post("accounts:batchCreate", ["users": users])
        #expect(reply.status == 200)
        #expect(reply["error"] == nil)
        let tenant = try server.app.services.admin.tenant(named: "default")
        #expect(try server.app.services.store.read { try $0.userCount(tenantID: tenant.id) } == 1000)
        // Other routes keep the server's 64 KiB limit.
        #expect(try await admin.post("accounts:lookup", ["users": users]).status == 413)
    }
}
