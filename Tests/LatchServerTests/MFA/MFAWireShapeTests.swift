import Foundation
import LatchServer
import LatchTesting
import Testing

/// Every MFA and registration answer against the reference tables of what MSAL decodes: required
/// fields present, `challenge_type` within the strict enum (`preverified` only from
/// `register/v1.0/challenge`), `challenge_target` and not `challenge_target_label` there.
@Suite("MFA: wire shapes")
struct MFAWireShapeTests {
    static let decodable: Set<String> = ["oob", "password", "redirect"]

    static func expectSuccess(
        _ reply: WireResponse, required: Set<String>, allowing extra: Set<String> = [], endpoint: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(reply.status == 200, "\(endpoint): \(reply.json)", sourceLocation: sourceLocation)
        let keys = Set(reply.keys)
        #expect(keys.isSuperset(of: required), "\(endpoint) lacks \(required.subtracting(keys))", sourceLocation: sourceLocation)
        #expect(
            keys.isSubset(of: required.union(extra)), "\(endpoint) has \(keys.subtracting(required.union(extra)))",
            sourceLocation: sourceLocation)
        if endpoint != "register/v1.0/challenge", let type = reply.string("challenge_type") {
            #expect(decodable.contains(type), "\(endpoint): challenge_type \(type)", sourceLocation: sourceLocation)
        }
    }

    @Test("MFA: mfa_required envelope, introspect, challenge (oob shape) and the token response")
    func mfaShapes() async throws {
        try await SecondFactorTests.withMFAUser(methods: [(.sms, "+14155550101")]) { server, email, _ in
            let client = WireClient(server)
            let first = try await SecondFactorTests.passwordStep(client, email: email)
            #expect(first.status == 400)
            #expect(Set(first.keys).isSuperset(of: ["error", "error_description", "suberror", "continuation_token"]))
            let introspect = try await client.post(
                "oauth2/v2.0/introspect", ["continuation_token": try #require(first.continuationToken)])
            Self.expectSuccess(introspect, required: ["continuation_token", "methods"], endpoint: "oauth2/v2.0/introspect")
            let methods = try #require(introspect["methods"] as? [[String: Any]])
            #expect(!methods.isEmpty)
            for method in methods {
                #expect(method["id"] is String && method["challenge_channel"] is String)
                #expect(Self.decodable.contains(method["challenge_type"] as? String ?? ""))
            }
            let challenge = try await client.post(
                "oauth2/v2.0/challenge",
                [
                    "continuation_token": try #require(introspect.continuationToken), "challenge_type": "oob password redirect",
                    "id": try #require(methods.first?["id"] as? String),
                ])
            Self.expectSuccess(
                challenge,
                required: ["continuation_token", "challenge_type", "challenge_target_label", "challenge_channel", "code_length"],
                allowing: ["binding_method", "interval"], endpoint: "oauth2/v2.0/challenge")
            let done = try await client.post(
                "oauth2/v2.0/token",
                [
                    "grant_type": "mfa_oob", "continuation_token": try #require(challenge.continuationToken),
                    "oob": try #require(try server.latestCode(to: "+14155550101")), "client_info": "true",
                    "scope": "openid profile offline_access",
                ])
            Self.expectSuccess(
                done,
                required: ["token_type", "scope", "expires_in", "access_token", "refresh_token", "id_token", "client_info"],
                allowing: ["device_token"], endpoint: "oauth2/v2.0/token")
        }
    }

    @Test("registration: registration_required envelope, introspect, challenge (oob and preverified) and continue")
    func registrationShapes() async throws {
        try await SecondFactorTests.withMFAUser(methods: []) { server, email, _ in
            let client = WireClient(server)
            let first = try await SecondFactorTests.passwordStep(client, email: email)
            #expect(first.suberror == "registration_required")
            #expect(first.continuationToken != nil)
            let introspect = try await client.post(
                "register/v1.0/introspect", ["continuation_token": try #require(first.continuationToken)])
            Self.expectSuccess(introspect, required: ["continuation_token", "methods"], endpoint: "register/v1.0/introspect")
            let oob = try await client.post(
                "register/v1.0/challenge",
                [
                    "continuation_token": try #require(introspect.continuationToken), "challenge_type": "oob",
                    "challenge_target": "+14155550102", "challenge_channel": "sms",
                ])
            Self.expectSuccess(
                oob, required: ["continuation_token", "challenge_type", "challenge_target", "challenge_channel", "code_length"],
                allowing: ["binding_method", "interval"], endpoint: "register/v1.0/challenge")
            #expect(oob.string("challenge_type") == "oob")
            let preverified = try await client.post(
                "register/v1.0/challenge",
                [
                    "continuation_token": try #require(oob.continuationToken), "challenge_type": "oob",
                    "challenge_target": email, "challenge_channel": "email",
                ])
            Self.expectSuccess(
                preverified, required: ["continuation_token", "challenge_type"], endpoint: "register/v1.0/challenge")
            #expect(preverified.string("challenge_type") == "preverified")
            let proceed = try await client.post(
                "register/v1.0/continue",
                ["continuation_token": try #require(preverified.continuationToken), "grant_type": "continuation_token"])
            Self.expectSuccess(proceed, required: ["continuation_token", "expires_in"], endpoint: "register/v1.0/continue")
        }
    }

    @Test("under MFA an unknown user and a wrong password still get the same answer (enumeration protection)")
    func enumerationUnderMFA() async throws {
        try await SecondFactorTests.withMFAUser(methods: [(.email, "hidden@example.org")]) { server, email, _ in
            try server.updateTenant { $0.enumerationProtection = true }
            let client = WireClient(server)
            func passwordAnswer(_ username: String, _ password: String) async throws -> WireResponse {
                let initiate = try await client.post(
                    "oauth2/v2.0/initiate",
                    [
                        "username": username, "challenge_type": "oob password redirect",
                        "capabilities": SecondFactorTests.capabilities,
                    ])
                let challenge = try await client.post(
                    "oauth2/v2.0/challenge",
                    ["continuation_token": try #require(initiate.continuationToken), "challenge_type": "password redirect"])
                return try await client.post(
                    "oauth2/v2.0/token",
                    [
                        "grant_type": "password", "continuation_token": try #require(challenge.continuationToken),
                        "password": password,
                    ])
            }
            let unknown = try await passwordAnswer(TokenHelpers.uniqueEmail("nobody"), TokenHelpers.password)
            let wrong = try await passwordAnswer(email, "Wrong-Password-123")
            #expect(unknown.status == wrong.status)
            #expect(unknown.error == wrong.error)
            #expect(unknown.errorCodes == wrong.errorCodes)
            #expect(unknown.keys == wrong.keys)
            #expect(unknown.suberror == nil)
        }
    }
}
