import Foundation
import LatchServer
import LatchTesting
import Testing

@Suite("Native auth: sign-up attributes")
struct NativeAuthSignUpAttributesTests {
    static let nameRegex = "[A-Za-z][A-Za-z .'-]{1,63}"

    /// A server with tenant `attrs` requiring `displayName` (matching ``nameRegex``).
    func withAttributesTenant(_ body: (NativeAuthFlows) async throws -> Void) async throws {
        try await withNativeAuthServer { auth in
            var settings = TenantSettings()
            settings.requiredAttributes = [AttributeDefinition(name: "displayName", regex: Self.nameRegex)]
            try auth.server.createTenant("attrs", settings: settings)
            try await body(auth.client(tenant: "attrs"))
        }
    }

    /// Runs a code-only sign-up up to the point where attributes are asked; returns the token.
    func reachAttributesRequired(_ auth: NativeAuthFlows, _ email: String) async throws -> String {
        let start = try await auth.signUpStart(email, challengeType: "oob redirect")
        try auth.expectOK(start)
        let challenge = try await auth.signUpChallenge(start.continuationToken, challengeType: "oob redirect")
        try auth.expectOK(challenge)
        let verified = try await auth.signUpContinue(
            challenge.continuationToken, grantType: "oob", oob: try auth.code(for: email))
        auth.expectError(verified, error: "attributes_required", codes: [55106])
        return try #require(verified.continuationToken)
    }

    @Test("attributes_required lists displayName; grant_type=attributes finishes; name claim set")
    func requiredAttributesCollected() async throws {
        try await withAttributesTenant { auth in
            let email = "ada@example.com"
            let start = try await auth.signUpStart(email, challengeType: "oob redirect")
            let challenge = try await auth.signUpChallenge(start.continuationToken, challengeType: "oob redirect")
            let verified = try await auth.signUpContinue(
                challenge.continuationToken, grantType: "oob", oob: try auth.code(for: email))
            auth.expectError(verified, error: "attributes_required", codes: [55106])
            let required = try #require(verified["required_attributes"] as? [[String: Any]])
            #expect(required.count == 1)
            #expect(required.first?["name"] as? String == "displayName")
            #expect(required.first?["type"] as? String == "string")
            #expect((required.first?["required"] as? NSNumber)?.boolValue == true)
            #expect((required.first?["options"] as? [String: Any])?["regex"] as? String == Self.nameRegex)
            #expect(verified.keys.contains("invalid_attributes") == false)

            let done = try await auth.signUpContinue(
                verified.continuationToken, grantType: "attributes", attributes: #"{"displayName":"Ada Lovelace"}"#)
            try auth.expectOK(done)
            let tokens = try auth.tokens(
                from: try await auth.token(grantType: "continuation_token", continuationToken: done.continuationToken))
            try auth.expectIDToken(tokens, email: email, amr: ["otp"], name: "Ada Lovelace")
            #expect(try auth.user(email).displayName == "Ada Lovelace")
        }
    }

    @Test("password later and attributes: credential_required, then attributes_required, then done")
    func passwordThenAttributes() async throws {
        try await withAttributesTenant { auth in
            let email = "both@example.com"
            let start = try await auth.signUpStart(email)
            let challenge = try await auth.signUpChallenge(start.continuationToken)
            let verified = try await auth.signUpContinue(
                challenge.continuationToken, grantType: "oob", oob: try auth.code(for: email))
            auth.expectError(verified, error: "credential_required", codes: [55103])
            let password = try await auth.signUpContinue(
                verified.continuationToken, grantType: "password", password: NativeAuthFixture.password)
            auth.expectError(password, error: "attributes_required", codes: [55106])
            #expect((password["required_attributes"] as? [[String: Any]])?.count == 1)
            let done = try await auth.signUpContinue(
                password.continuationToken, grantType: "attributes", attributes: #"{"displayName":"Both Ways"}"#)
            try auth.expectOK(done)
            let tokens = try auth.tokens(
                from: try await auth.token(grantType: "continuation_token", continuationToken: done.continuationToken))
            try auth.expectIDToken(tokens, email: email, amr: ["otp"], name: "Both Ways")
            _ = try await auth.signIn(email, password: NativeAuthFixture.password)
        }
    }

    @Test("attributes given at start are not asked again")
    func attributesAtStart() async throws {
        try await withAttributesTenant { auth in
            let tokens = try await auth.signUp(
                "early@example.com", password: NativeAuthFixture.password, attributes: #"{"displayName":"Early Bird"}"#)
            try auth.expectIDToken(tokens, email: "early@example.com", amr: ["otp"], name: "Early Bird")
        }
    }

    @Test("a value failing the regex: invalid_grant attribute_validation_failed naming the attribute")
    func regexMismatch() async throws {
        try await withAttributesTenant { auth in
            let token = try await reachAttributesRequired(auth, "bad@example.com")
            let reply = try await auth.signUpContinue(
                token, grantType: "attributes", attributes: #"{"displayName":"<script>"}"#)
            auth.expectError(reply, error: "invalid_grant", suberror: "attribute_validation_failed", codes: [90100])
            let invalid = try #require(reply["invalid_attributes"] as? [[String: Any]])
            #expect(invalid.map { $0["name"] as? String } == ["displayName"])

            let number = try await auth.signUpContinue(token, grantType: "attributes", attributes: #"{"displayName":42}"#)
            auth.expectError(number, error: "invalid_grant", suberror: "attribute_validation_failed", codes: [90100])
            #expect((number["invalid_attributes"] as? [[String: Any]])?.first?["name"] as? String == "displayName")

            // The token survives validation failures.
            let done = try await auth.signUpContinue(token, grantType: "attributes", attributes: #"{"displayName":"Fine Name"}"#)
            try auth.expectOK(done)
        }
    }

    @Test(
        "the regex must match the whole value: line breaks are refused",
        arguments: [#"Ada Lovelace\n"#, #"Ada Lovelace\r\n"#, #"Ada\nLovelace"#, #"\nAda Lovelace"#])
    func regexAnchorsWholeValue(value: String) async throws {
        try await withAttributesTenant { auth in
            let token = try await reachAttributesRequired(auth, "anchor@example.com")
            let reply = try await auth.signUpContinue(
                token, grantType: "attributes", attributes: #"{"displayName":""# + value + #""}"#)
            auth.expectError(reply, error: "invalid_grant", suberror: "attribute_validation_failed", codes: [90100])
            #expect((reply["invalid_attributes"] as? [[String: Any]])?.first?["name"] as? String == "displayName")
            #expect(try auth.server.app.services.admin.users(tenant: auth.tenantRecord()).isEmpty, "no account created")
        }
    }

    @Test("attributes that are not a JSON object, or empty: invalid_request")
    func malformedAttributes() async throws {
        try await withAttributesTenant { auth in
            let token = try await reachAttributesRequired(auth, "json@example.com")
            for text in ["displayName=Ada", "[\"Ada\"]", "{\"displayName\":", "\"Ada\""] {
                let reply = try await auth.signUpContinue(token, grantType: "attributes", attributes: text)
                auth.expectError(reply, error: "invalid_request", codes: [90100])
                #expect(reply.errorDescription == "attributes parameter is empty or not valid", "for \(text)")
            }
            let empty = try await auth.signUpContinue(token, grantType: "attributes", attributes: "{}")
            auth.expectError(empty, error: "invalid_request", codes: [90100])
            #expect(empty.errorDescription == "attributes parameter is empty or not valid")
            let absent = try await auth.signUpContinue(token, grantType: "attributes")
            auth.expectError(absent, error: "invalid_request", codes: [90100])
        }
    }

    @Test("invalid attributes at start are refused before any code goes out")
    func invalidAttributesAtStart() async throws {
        try await withAttributesTenant { auth in
            let reply = try await auth.signUpStart(
                "start@example.com", password: NativeAuthFixture.password, attributes: #"{"displayName":"!"}"#)
            auth.expectError(reply, error: "invalid_grant", suberror: "attribute_validation_failed", codes: [90100])
            #expect((reply["invalid_attributes"] as? [[String: Any]])?.first?["name"] as? String == "displayName")
            let notJSON = try await auth.signUpStart(
                "start@example.com", password: NativeAuthFixture.password, attributes: "nope")
            auth.expectError(notJSON, error: "invalid_request", codes: [90100])
            #expect(try auth.messageCount(to: "start@example.com") == 0)
        }
    }
}
