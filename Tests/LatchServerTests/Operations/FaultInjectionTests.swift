import Foundation
import LatchServer
import LatchTesting
import Testing

/// `LatchTestServer.faults`: injected 429/5xx/latency on chosen routes, and server-side request counts.
@Suite("Fault injection")
struct FaultInjectionTests {
    static let token = "/oauth2/v2.0/token"

    /// A token request that reaches the server fails with 400 (the continuation token is bogus).
    static func tokenRequest(_ client: WireClient, headers: [String: String] = [:]) async throws -> WireResponse {
        try await client.post(
            "oauth2/v2.0/token", ["grant_type": "password", "continuation_token": "bogus", "password": "x"], headers: headers)
    }

    /// Elapsed seconds of `body`.
    static func timed<T>(_ body: () async throws -> T) async rethrows -> (T, Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        let value = try await body()
        return (value, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    @Test("429 with Retry-After in seconds, in the native-auth envelope, on the chosen route only")
    func tooManyRequestsSeconds() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        server.faults.inject(.tooManyRequests(retryAfter: "7"), on: Self.token)

        let throttled = try await Self.tokenRequest(
            client, headers: ["client-request-id": "7C2D56E4-1B1A-4D3C-9E5F-0A9B8C7D6E5F"])
        #expect(throttled.status == 429)
        #expect(throttled.headers["retry-after"] == "7")
        #expect(throttled.headers["content-type"]?.hasPrefix("application/json") == true)
        #expect(throttled.headers["cache-control"] == "no-store")
        #expect(throttled.error == "too_many_requests")
        #expect(throttled.string("error_description")?.isEmpty == false)
        #expect((throttled["error_codes"] as? [Any])?.isEmpty == true)
        #expect(throttled.string("correlation_id") == "7C2D56E4-1B1A-4D3C-9E5F-0A9B8C7D6E5F")
        #expect(throttled.headers["client-request-id"] == "7C2D56E4-1B1A-4D3C-9E5F-0A9B8C7D6E5F")
        let traceID = try #require(throttled.string("trace_id"))
        #expect(throttled.headers["x-request-id"] == traceID)
        let timestamp = try #require(throttled.string("timestamp"))
        #expect(timestamp.wholeMatch(of: /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z/) != nil)
        // Without client-request-id, correlation_id falls back to the trace id, as the server does.
        let anonymous = try await Self.tokenRequest(client)
        #expect(anonymous.string("correlation_id") == anonymous.string("trace_id"))

        // Other routes answer normally.
        let email = TokenHelpers.uniqueEmail("faults")
        try server.createUser(email: email, password: TokenHelpers.password)
        let initiate = try await client.post(
            "oauth2/v2.0/initiate", ["username": email, "challenge_type": "password redirect"])
        #expect(initiate.status == 200)
        #expect(initiate.headers["retry-after"] == nil)
        #expect(try await client.raw("GET", "/healthz").status == 200)

        // Injected answers are timed and counted like any other response.
        let metrics = try await OperationsTests.metrics(client)
        #expect(
            OperationsTests.sample(
                #"latch_http_requests_total{route="/{tenant}/oauth2/v2.0/token",method="POST",status="429"}"#, in: metrics)
                == 2)
    }

    @Test("429 with Retry-After as an HTTP-date, given verbatim or as a Date")
    func tooManyRequestsHTTPDate() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        server.faults.inject(.tooManyRequests(retryAfter: "Wed, 21 Oct 2015 07:28:00 GMT"), on: Self.token)
        let verbatim = try await Self.tokenRequest(client)
        #expect(verbatim.status == 429)
        #expect(verbatim.headers["retry-after"] == "Wed, 21 Oct 2015 07:28:00 GMT")

        server.faults.clear()
        let date = Date(timeIntervalSince1970: 1_445_412_480 + 3600)  // 2015-10-21 08:28:00 UTC
        server.faults.inject(.tooManyRequests(retryAfter: date), on: Self.token)
        let formatted = try await Self.tokenRequest(client)
        #expect(formatted.status == 429)
        #expect(formatted.headers["retry-after"] == "Wed, 21 Oct 2015 08:28:00 GMT")
        #expect(FaultRule.httpDate(server.clock.now()).hasSuffix(" GMT"))
    }

    @Test("A rule limited to N occurrences expires; clear() removes the rest")
    func limitedTimes() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        server.faults.inject(.tooManyRequests(retryAfter: "1", times: 2), on: Self.token)
        #expect(try await Self.tokenRequest(client).status == 429)
        #expect(try await Self.tokenRequest(client).status == 429)
        let through = try await Self.tokenRequest(client)
        #expect(through.status == 400)
        #expect(through.error == "invalid_grant")

        server.faults.inject(.serverError(), on: Self.token)
        #expect(try await Self.tokenRequest(client).status == 503)
        server.faults.clear()
        #expect(try await Self.tokenRequest(client).status == 400)
        #expect(server.faults.requestCount(path: Self.token) == 5)
    }

    @Test("A limited rule throttles exactly N of many concurrent requests, and counts them all")
    func concurrentLimit() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        server.faults.inject(.serverError(status: 502, times: 5), on: "/healthz")
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<40 { group.addTask { try await client.raw("GET", "/healthz").status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.count { $0 == 502 } == 5)
        #expect(statuses.count { $0 == 200 } == 35)
        #expect(server.faults.requestCount(path: "/healthz") == 40)
    }

    @Test("5xx answers with server_error and optional Retry-After; a method filter spares other methods")
    func serverErrors() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        server.faults.inject(.serverError(), on: Self.token)
        let unavailable = try await Self.tokenRequest(client, headers: ["client-request-id": "corr-503"])
        #expect(unavailable.status == 503)
        #expect(unavailable.error == "server_error")
        #expect(unavailable.headers["retry-after"] == nil)
        #expect(unavailable.string("correlation_id") == "corr-503")
        #expect(unavailable.string("trace_id") == unavailable.headers["x-request-id"])

        server.faults.inject(.serverError(status: 500, retryAfter: "3"), on: "/healthz", method: "get")
        let failed = try await client.raw("GET", "/healthz")
        #expect(failed.status == 500)
        #expect(failed.headers["retry-after"] == "3")
        #expect(failed.error == "server_error")
        #expect(try await client.raw("POST", "/healthz").status == 405)
        #expect(try await client.raw("GET", "/readyz").status == 200)
    }

    @Test("A delay adds latency and then lets the server answer; delays precede a later error rule")
    func delay() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        server.faults.inject(.delay(seconds: 0.4, times: 1), on: "/healthz")
        let (slow, elapsed) = try await Self.timed { try await client.raw("GET", "/healthz") }
        #expect(slow.status == 200)
        #expect(slow.string("status") == "ok")
        #expect(elapsed >= 0.4)

        server.faults.inject(.delay(seconds: 0.3), on: Self.token)
        server.faults.inject(.serverError(status: 504), on: Self.token)
        let (timedOut, waited) = try await Self.timed { try await Self.tokenRequest(client) }
        #expect(timedOut.status == 504)
        #expect(waited >= 0.3)
    }

    @Test("Every request is counted by path and method, faulted or not; reset() forgets them")
    func counting() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        server.faults.inject(.tooManyRequests(retryAfter: "1", times: 1), on: Self.token)
        #expect(try await Self.tokenRequest(client).status == 429)
        #expect(try await Self.tokenRequest(client).status == 400)
        #expect(try await client.raw("GET", "/healthz").status == 200)
        #expect(try await client.raw("POST", "/healthz").status == 405)
        #expect(try await client.raw("GET", "/no/such/route").status == 404)

        #expect(server.faults.requestCount(path: Self.token) == 2)
        #expect(server.faults.requestCount(path: "/default/oauth2/v2.0/token") == 2)
        #expect(server.faults.requestCount(path: "v2.0/token") == 2)
        #expect(server.faults.requestCount(path: "/oken") == 0, "suffixes match whole segments only")
        #expect(server.faults.requestCount(path: "/healthz") == 2)
        #expect(server.faults.requestCount(path: "/healthz", method: "POST") == 1)
        #expect(server.faults.requestCount(path: "/oauth2/v2.0/initiate") == 0)
        let log = server.faults.requests()
        #expect(log.map(\.method) == ["POST", "POST", "GET", "POST", "GET"])
        #expect(
            log.map(\.path) == [
                "/default/oauth2/v2.0/token", "/default/oauth2/v2.0/token", "/healthz", "/healthz", "/no/such/route",
            ])

        server.faults.inject(.serverError(), on: "/healthz")
        server.faults.reset()
        #expect(server.faults.requests().isEmpty)
        #expect(try await client.raw("GET", "/healthz").status == 200, "reset() removes rules too")
        #expect(server.faults.requestCount(path: "/healthz") == 1)
    }

    @Test("Without an interceptor the server routes directly and nothing is counted")
    func noInterceptor() async throws {
        let server = try LatchTestServer.start { $0.interceptor = nil }
        defer { server.stop() }
        server.faults.inject(.serverError(), on: "/healthz")
        #expect(try await WireClient(server).raw("GET", "/healthz").status == 200)
        #expect(server.faults.requestCount(path: "/healthz") == 0)
    }
}
