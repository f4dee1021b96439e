import Foundation
import LatchServer
import LatchTesting
import Testing

@Suite("Native auth: request validation")
struct NativeAuthRequestValidationTests {
    static let form = "application/x-www-form-urlencoded"

    @Test("unknown tenant: 400 invalid_request 90002")
    func unknownTenant() async throws {
        try await withNativeAuthServer { auth in
            let nowhere = auth.client(tenant: "no-such-tenant")
            let reply = try await nowhere.initiate("a@example.com")
            nowhere.expectError(reply, error: "invalid_request", codes: [90002])
            #expect(reply.errorDescription == "The tenant does not exist.")
            let token = try await nowhere.token(grantType: "continuation_token", continuationToken: "x")
            nowhere.expectError(token, error: "invalid_request", codes: [90002])
        }
    }

    @Test("challenge_type without redirect: unsupported_challenge_type at every endpoint that takes one")
    func missingRedirect() async throws {
        try await withNativeAuthServer { auth in
            try auth.server.createUser(email: "user@example.com", password: NativeAuthFixture.password)
            let types = "oob password"
            var replies = [
                try await auth.signUpStart("new@example.com", password: NativeAuthFixture.password, challengeType: types),
                try await auth.initiate("user@example.com", challengeType: types),
                try await auth.resetStart("user@example.com", challengeType: types),
            ]
            let signUp = try await auth.signUpStart("new@example.com", password: NativeAuthFixture.password)
            let signIn = try await auth.initiate("user@example.com")
            let reset = try await auth.resetStart("user@example.com")
            replies.append(try await auth.signUpChallenge(signUp.continuationToken, challengeType: types))
            replies.append(try await auth.challenge(signIn.continuationToken, challengeType: types))
            replies.append(try await auth.resetChallenge(reset.continuationToken, challengeType: types))
            for reply in replies {
                auth.expectError(reply, error: "unsupported_challenge_type", codes: nil)
                #expect(reply.errorDescription?.contains("redirect") == true)
            }
            let missing = try await auth.initiate("user@example.com", challengeType: nil)
            auth.expectError(missing, error: "invalid_request", codes: [90100])
            #expect(missing.errorDescription == "challenge_type parameter is empty or not valid")
            #expect(try auth.messageCount(to: "new@example.com") == 0)
        }
    }

    @Test("username missing or not an e-mail address: invalid_request with the reason")
    func badUsernames() async throws {
        try await withNativeAuthServer { auth in
            let cases: [(String?, String)] = [
                (nil, "username parameter is empty or not valid"), ("", "username parameter is empty or not valid"),
                ("ada", "username parameter is empty or not valid"),
                ("ada@localhost", "username parameter is empty or not valid"),
                ("a b@example.com", "username parameter is empty or not valid"),
                ("@example.com", "username parameter is empty or not valid"),
                ("ada@@example.com", "username parameter is empty or not valid"),
            ]
            for (username, description) in cases {
                for reply in [
                    try await auth.signUpStart(username, password: NativeAuthFixture.password),
                    try await auth.initiate(username),
                    try await auth.resetStart(username),
                ] {
                    auth.expectError(reply, error: "invalid_request", codes: [90100])
                    #expect(reply.errorDescription == description, "username \(username ?? "nil")")
                }
            }
        }
    }

    @Test(
        "malformed bodies: 400 invalid_request naming the problem",
        arguments: [
            (
                "application/json", #"{"username":"a@example.com"}"#,
                "Content-Type must be application/x-www-form-urlencoded, not application/json"
            ),
            (
                "application/x-www-form-urlencoded; charset=iso-8859-1", "client_id=latch-dev",
                "form body must be UTF-8, not charset iso-8859-1"
            ),
            (
                "application/x-www-form-urlencoded", "client_id=latch-dev&username=%ZZ&challenge_type=password+redirect",
                "form parameter 'username' has malformed percent-encoding"
            ),
            (
                "application/x-www-form-urlencoded", "client_id=latch-dev&username=a%4&challenge_type=password+redirect",
                "form parameter 'username' has malformed percent-encoding"
            ),
            (
                "application/x-www-form-urlencoded", "client_id=latch-dev&username=%FF%FE&challenge_type=password+redirect",
                "form parameter 'username' is not valid UTF-8"
            ),
            (
                "application/x-www-form-urlencoded",
                "client_id=latch-dev&username=a%40example.com&username=b%40example.com&challenge_type=password+redirect",
                "form parameter 'username' is repeated"
            ),
            (
                "application/x-www-form-urlencoded",
                "client_id=latch-dev&client_id=latch-dev&username=a%40example.com&challenge_type=password+redirect",
                "form parameter 'client_id' is repeated"
            ),
        ] as [(String, String, String)])
    func malformedBody(contentType: String, body: String, description: String) async throws {
        try await withNativeAuthServer(mode: .live) { auth in
            let reply = try await auth.postRaw("oauth2/v2.0/initiate", body: Data(body.utf8), contentType: contentType)
            auth.expectError(reply, error: "invalid_request", codes: [90100])
            #expect(reply.errorDescription == description)
        }
    }

    @Test("no Content-Type at all: 400 invalid_request with the envelope")
    func missingContentType() async throws {
        try await withNativeAuthServer(mode: .live) { auth in
            let (status, json) = try NativeAuthRawHTTP.send(
                port: auth.server.app.port,
                head:
                    "POST /default/oauth2/v2.0/initiate HTTP/1.1\r\nHost: 127.0.0.1\r\nclient-request-id: 0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9",
                body: Data("client_id=latch-dev&username=a%40example.com&challenge_type=password+redirect".utf8))
            #expect(status == 400)
            #expect(json["error"] as? String == "invalid_request")
            #expect(json["error_description"] as? String == "missing Content-Type; expected application/x-www-form-urlencoded")
            #expect((json["error_codes"] as? [Any])?.compactMap { ($0 as? NSNumber)?.intValue } == [90100])
            #expect(json["correlation_id"] as? String == "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9")
            #expect((json["trace_id"] as? String)?.isEmpty == false)
            #expect(json["timestamp"] as? String == NativeAuthFlows.timestamp(auth.server.clock.now()))
        }
    }

    @Test("a form body with charset=UTF-8 and + for spaces is accepted")
    func lenientButValidForm() async throws {
        try await withNativeAuthServer { auth in
            try auth.server.createUser(email: "plus@example.com", password: NativeAuthFixture.password)
            let reply = try await auth.postRaw(
                "oauth2/v2.0/initiate",
                body: Data("client_id=latch-dev&username=plus%40example.com&challenge_type=password+redirect".utf8),
                contentType: "Application/X-WWW-Form-URLEncoded; charset=UTF-8")
            try auth.expectOK(reply)
            let challenge = try await auth.challenge(reply.continuationToken, challengeType: "password redirect")
            #expect(challenge.string("challenge_type") == "password")
        }
    }

    @Test("a body over 64 KiB: 413")
    func oversizedBody() async throws {
        try await withNativeAuthServer(mode: .live) { auth in
            let filler = String(repeating: "a", count: 64 * 1024)
            let body = "client_id=latch-dev&username=big%40example.com&challenge_type=password+redirect&pad=" + filler
            let reply = try await auth.postRaw("oauth2/v2.0/initiate", body: Data(body.utf8), contentType: Self.form)
            #expect(reply.status == 413)
            #expect(reply.error == "invalid_request")
            #expect(reply.errorDescription == "request body exceeds 65536 bytes")
            #expect(reply.wire.headers["client-request-id"] == reply.requestID)
            #expect(reply.wire.headers["x-request-id"]?.isEmpty == false)

            // Just under the limit is parsed normally (and fails only on the unknown user).
            let fits = "client_id=latch-dev&username=big%40example.com&challenge_type=password+redirect&pad="
            let padded = fits + String(repeating: "a", count: 64 * 1024 - fits.utf8.count)
            let ok = try await auth.postRaw("oauth2/v2.0/initiate", body: Data(padded.utf8), contentType: Self.form)
            auth.expectError(ok, error: "user_not_found", codes: [50034])
        }
    }

    @Test("a body over 64 KiB is refused with the full native-auth error envelope")
    func oversizedBodyEnvelope() async throws {
        try await withNativeAuthServer(mode: .live) { auth in
            let body =
                "client_id=latch-dev&username=big%40example.com&challenge_type=password+redirect&pad="
                + String(repeating: "a", count: 64 * 1024)
            let reply = try await auth.postRaw(
                "oauth2/v2.0/initiate", body: Data(body.utf8), contentType: "application/x-www-form-urlencoded")
            auth.expectError(reply, status: 413, error: "invalid_request", codes: [90100])
        }
    }

    @Test("the client-request-id is echoed in the header and, on errors, as correlation_id")
    func correlationID() async throws {
        try await withNativeAuthServer { auth in
            try auth.server.createUser(email: "corr@example.com", password: NativeAuthFixture.password)
            let ok = try await auth.initiate("corr@example.com")
            try auth.expectOK(ok)
            #expect(ok.wire.headers["client-request-id"] == ok.requestID)
            let failed = try await auth.initiate("missing@example.com")
            auth.expectError(failed, error: "user_not_found", codes: [50034])
            #expect(failed.wire.headers["client-request-id"] == failed.requestID)

            // Without one (or with one that is not a UUID), the server's own UUID correlates.
            for headers in [[:], ["client-request-id": "not-a-uuid"]] {
                let bare = try await auth.wire.post(
                    "oauth2/v2.0/initiate", ["username": "missing@example.com", "challenge_type": "password redirect"],
                    headers: headers)
                let echoed = try #require(bare.headers["client-request-id"])
                #expect(UUID(uuidString: echoed) != nil)
                #expect(bare.string("correlation_id") == echoed)
                #expect(bare.string("trace_id") == bare.headers["x-request-id"])
            }
        }
    }
}
