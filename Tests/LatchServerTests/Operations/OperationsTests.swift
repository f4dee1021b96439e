import Foundation
import LatchServer
import LatchTesting
import Testing

/// Liveness, readiness, Prometheus metrics, correlation headers.
@Suite("Operations endpoints")
struct OperationsTests {
    /// The value of the sample whose name and labels are exactly `series`, if present.
    static func sample(_ series: String, in text: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1))
        }
        return nil
    }

    static func metrics(_ client: WireClient) async throws -> String {
        let response = try await client.raw("GET", "/metrics")
        try #require(response.status == 200)
        #expect(response.headers["content-type"]?.hasPrefix("text/plain") == true)
        return String(decoding: response.body, as: UTF8.self)
    }

    @Test("/healthz and /readyz answer 200")
    func health() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        let health = try await client.raw("GET", "/healthz")
        #expect(health.status == 200)
        #expect(health.string("status") == "ok")
        let ready = try await client.raw("GET", "/readyz")
        #expect(ready.status == 200)
        #expect(ready.string("status") == "ready")
        #expect(try await client.raw("POST", "/healthz").status == 405)
    }

    @Test("/metrics counts requests by route, method and status, times them, and counts sign-in outcomes")
    func metricsAfterSignIns() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        let email = TokenHelpers.uniqueEmail("metrics")
        try server.createUser(email: email, password: TokenHelpers.password)

        let good = try await TokenHelpers.passwordSignIn(client, email: email)
        #expect(good.status == 200)
        let bad = try await TokenHelpers.passwordSignIn(client, email: email, password: "Wrong-Password-Again-1")
        #expect(bad.status == 400)
        #expect(bad.errorCodes == [50126])
        let second = try await TokenHelpers.passwordSignIn(client, email: email)
        #expect(second.status == 200)
        #expect(try await client.raw("GET", "/no/such/path/\(UUID().uuidString)").status == 404)
        #expect(try await client.raw("GET", "/\(UUID().uuidString)").status == 404)

        let text = try await Self.metrics(client)
        let token = #"route="/{tenant}/oauth2/v2.0/token""#
        #expect(Self.sample(#"latch_http_requests_total{\#(token),method="POST",status="200"}"#, in: text) == 2)
        #expect(Self.sample(#"latch_http_requests_total{\#(token),method="POST",status="400"}"#, in: text) == 1)
        #expect(
            Self.sample(
                #"latch_http_requests_total{route="/{tenant}/oauth2/v2.0/initiate",method="POST",status="200"}"#, in: text) == 3)
        #expect(Self.sample(#"latch_http_requests_total{route="unmatched",method="GET",status="404"}"#, in: text) == 2)
        #expect(!text.contains("/no/such/path"), "raw unmatched paths must not become label values")

        #expect(text.contains("# TYPE latch_http_request_duration_seconds histogram"))
        #expect(Self.sample(#"latch_http_request_duration_seconds_bucket{\#(token),le="+Inf"}"#, in: text) == 3)
        #expect(Self.sample(#"latch_http_request_duration_seconds_count{\#(token)}"#, in: text) == 3)
        let sum = try #require(Self.sample(#"latch_http_request_duration_seconds_sum{\#(token)}"#, in: text))
        #expect(sum > 0)
        // Buckets are cumulative: non-decreasing and ending at the count.
        let buckets = text.split(separator: "\n").filter { $0.hasPrefix("latch_http_request_duration_seconds_bucket{\(token)") }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
        #expect(buckets.count == 13)
        #expect(buckets == buckets.sorted())

        #expect(Self.sample(#"latch_sign_ins_total{outcome="success"}"#, in: text) == 2)
        #expect(Self.sample(#"latch_sign_ins_total{outcome="invalid_credentials"}"#, in: text) == 1)
        #expect(text.contains("# TYPE latch_sign_ins_total counter"))
    }

    @Test("an unknown user counts as user_not_found, a wrong code as invalid_code")
    func signInFailureOutcomes() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        let unknown = try await client.post(
            "oauth2/v2.0/initiate", ["username": "nobody@example.com", "challenge_type": "password redirect"])
        #expect(unknown.error == "user_not_found")

        let email = TokenHelpers.uniqueEmail("code")
        try server.createUser(email: email, password: nil)
        let initiate = try await client.post("oauth2/v2.0/initiate", ["username": email, "challenge_type": "oob redirect"])
        let challenge = try await client.post(
            "oauth2/v2.0/challenge", ["continuation_token": try #require(initiate.continuationToken)])
        try #require(challenge.string("challenge_type") == "oob")
        let wrong = try await client.post(
            "oauth2/v2.0/token",
            ["grant_type": "oob", "continuation_token": try #require(challenge.continuationToken), "oob": "00000000"])
        #expect(wrong.error == "invalid_grant")

        let text = try await Self.metrics(client)
        #expect(Self.sample(#"latch_sign_ins_total{outcome="user_not_found"}"#, in: text) == 1)
        #expect(Self.sample(#"latch_sign_ins_total{outcome="invalid_code"}"#, in: text) == 1)
        #expect(Self.sample(#"latch_sign_ins_total{outcome="success"}"#, in: text) == 0)
    }

    @Test("client-request-id is echoed and correlates the error envelope; x-request-id is unique per request")
    func correlationHeaders() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        let correlation = UUID().uuidString.lowercased()
        let response = try await client.post(
            "oauth2/v2.0/initiate", ["username": "nobody@example.com", "challenge_type": "password redirect"],
            headers: ["client-request-id": correlation])
        #expect(response.status == 400)
        #expect(response.headers["client-request-id"] == correlation)
        let requestID = try #require(response.headers["x-request-id"])
        #expect(!requestID.isEmpty)
        #expect(response.string("correlation_id") == correlation)
        #expect(response.string("trace_id") == requestID)

        let other = try await client.raw("GET", "/healthz")
        let otherID = try #require(other.headers["x-request-id"])
        #expect(otherID != requestID)
        // Without a client-request-id the server makes one: a UUID, echoed and used in the envelope.
        let ownID = try #require(other.headers["client-request-id"])
        #expect(UUID(uuidString: ownID) != nil)
        let plain = try await client.post(
            "oauth2/v2.0/initiate", ["username": "nobody@example.com", "challenge_type": "password redirect"])
        let plainID = try #require(plain.headers["client-request-id"])
        #expect(UUID(uuidString: plainID) != nil)
        #expect(plain.string("correlation_id") == plainID)
        #expect(plainID != ownID)
    }
}

extension OperationsTests {
    @Test("/metrics counts connections that ended abnormally, by reason")
    func abnormalConnectionEndings() async throws {
        let server = try LatchTestServer.start()
        defer { server.stop() }
        let client = WireClient(server)
        let text = try await Self.metrics(client)
        for reason in ["header_timeout", "timeout", "client_abort", "connection_limit"] {
            #expect(
                Self.sample(#"latch_http_connections_ended_abnormally_total{reason="\#(reason)"}"#, in: text) != nil,
                "\(reason)")
        }
    }
}
