import Foundation
import LatchCurl
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``CurlHTTPClient`` against a real LatchHTTP server over HTTPS (and HTTP).
@Suite("CurlHTTPClient")
struct CurlHTTPClientTests {
    private func http(_ response: URLResponse) throws -> HTTPURLResponse {
        try #require(response as? HTTPURLResponse)
    }

    private func json(_ data: Data) throws -> [String: String] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
    }

    /// The `URLError` `operation` throws.
    private func urlError(_ operation: () async throws -> Void) async throws -> URLError {
        do {
            try await operation()
        } catch let error as URLError {
            return error
        }
        Issue.record("no error was thrown")
        throw CancellationError()
    }

    @Test("GET over HTTPS trusting the CA file: status, headers and body come back")
    func getRoundTrip() async throws {
        let server = try CurlTestServer(routes: CurlTestServer.standardRoutes)
        defer { server.stop() }
        let client = CurlHTTPClient(certificateAuthorityFile: server.certificateAuthorityFile)
        var request = URLRequest(url: server.url("/echo"))
        request.setValue("hello there", forHTTPHeaderField: "X-Test")
        let (data, response) = try await client.data(for: request)
        let reply = try http(response)
        #expect(reply.statusCode == 201)
        #expect(reply.value(forHTTPHeaderField: "x-reply") == "yes")
        #expect(reply.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(reply.url == server.url("/echo"))
        let echoed = try json(data)
        #expect(echoed["method"] == "GET")
        #expect(echoed["x-test"] == "hello there")
        #expect(echoed["body"] == "")
    }

    @Test("POST, PUT and DELETE send the method, headers and body; no Expect header")
    func methodsAndBodies() async throws {
        let server = try CurlTestServer(routes: CurlTestServer.standardRoutes)
        defer { server.stop() }
        let client = CurlHTTPClient(certificateAuthorityFile: server.certificateAuthorityFile)
        let large = String(repeating: "a=1&", count: 2_000)
        for (method, body) in [("POST", "grant_type=password&username=ada"), ("PUT", large), ("POST", "")] {
            var request = URLRequest(url: server.url("/echo"))
            request.httpMethod = method
            request.httpBody = Data(body.utf8)
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            let (data, response) = try await client.data(for: request)
            #expect(try http(response).statusCode == 201)
            let echoed = try json(data)
            #expect(echoed["method"] == method)
            #expect(echoed["body"] == body)
            #expect(echoed["content-type"] == "application/x-www-form-urlencoded")
            #expect(echoed["expect"] == "")
        }
        var delete = URLRequest(url: server.url("/echo"))
        delete.httpMethod = "DELETE"
        let (data, _) = try await client.data(for: delete)
        #expect(try json(data)["method"] == "DELETE")
    }

    @Test("error statuses are responses, and redirects are not followed")
    func statusesAndRedirects() async throws {
        let server = try CurlTestServer(routes: CurlTestServer.standardRoutes)
        defer { server.stop() }
        let client = CurlHTTPClient(certificateAuthorityFile: server.certificateAuthorityFile)
        for status in [400, 404, 503] {
            let (_, response) = try await client.data(for: URLRequest(url: server.url("/status/\(status)")))
            #expect(try http(response).statusCode == status)
        }
        let (data, response) = try await client.data(for: URLRequest(url: server.url("/redirect")))
        #expect(try http(response).statusCode == 302)
        #expect(try http(response).value(forHTTPHeaderField: "Location") == "/echo")
        #expect(String(decoding: data, as: UTF8.self) == "moved")
    }

    @Test("plain HTTP works too, and many concurrent requests share the client")
    func plainHTTPConcurrently() async throws {
        let server = try CurlTestServer(tls: false, routes: CurlTestServer.standardRoutes)
        defer { server.stop() }
        let client = CurlHTTPClient(certificateAuthorityFile: nil)
        let url = server.url("/echo")
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<16 {
                group.addTask { try #require(try await client.data(for: URLRequest(url: url)).1 as? HTTPURLResponse).statusCode }
            }
            for try await status in group { #expect(status == 201) }
        }
    }

    @Test("a refused connection is URLError.cannotConnectToHost (-1004)")
    func connectionRefused() async throws {
        let client = CurlHTTPClient(certificateAuthorityFile: nil)
        let error = try await urlError { _ = try await client.data(for: URLRequest(url: URL(string: "http://127.0.0.1:1/")!)) }
        #expect(error.code == .cannotConnectToHost)
        #expect(error.errorCode == -1004)
        #expect(error.localizedDescription.contains("127.0.0.1:1"), "\(error.localizedDescription)")
        #expect(error.userInfo[CurlHTTPClient.curlErrorCodeKey] as? Int == 7)
    }

    @Test("a certificate from an untrusted CA is URLError.serverCertificateUntrusted (-1202), and no body leaks")
    func untrustedCertificate() async throws {
        let server = try CurlTestServer(routes: CurlTestServer.standardRoutes)
        defer { server.stop() }
        let client = CurlHTTPClient(certificateAuthorityFile: nil)
        var request = URLRequest(url: server.url("/echo"))
        request.httpMethod = "POST"
        request.httpBody = Data("password=Secret-Value-123".utf8)
        request.setValue("Bearer secret-token", forHTTPHeaderField: "Authorization")
        let error = try await urlError { _ = try await client.data(for: request) }
        #expect(error.code == .serverCertificateUntrusted)
        #expect(error.errorCode == -1202)
        let description = error.localizedDescription
        #expect(description.contains("certificate"), "\(description)")
        #expect(!description.contains("Secret-Value") && !description.contains("secret-token"), "\(description)")
        #expect(error.userInfo[CurlHTTPClient.curlErrorCodeKey] as? Int == 60)
        #expect(error.failingURL == server.url("/echo"))
    }

    @Test("a certificate signed by another CA than the file's is untrusted too")
    func otherCertificateAuthority() async throws {
        let server = try CurlTestServer(routes: CurlTestServer.standardRoutes)
        defer { server.stop() }
        let other = try CurlTestServer(routes: CurlTestServer.standardRoutes)
        defer { other.stop() }
        let client = CurlHTTPClient(certificateAuthorityFile: other.certificateAuthorityFile)
        let error = try await urlError { _ = try await client.data(for: URLRequest(url: server.url("/echo"))) }
        #expect(error.code == .serverCertificateUntrusted)
        let (_, response) = try await client.data(for: URLRequest(url: other.url("/echo")))
        #expect(try http(response).statusCode == 201)
    }

    @Test("an unreadable CA file is URLError.serverCertificateUntrusted")
    func missingCertificateAuthorityFile() async throws {
        let server = try CurlTestServer(routes: CurlTestServer.standardRoutes)
        defer { server.stop() }
        let client = CurlHTTPClient(certificateAuthorityFile: "/nonexistent/ca.pem")
        let error = try await urlError { _ = try await client.data(for: URLRequest(url: server.url("/echo"))) }
        #expect(error.code == .serverCertificateUntrusted, "\(error.localizedDescription)")
    }

    @Test("the time limit gives URLError.timedOut")
    func timeout() async throws {
        let server = try CurlTestServer(routes: CurlTestServer.standardRoutes)
        defer { server.stop() }
        let client = CurlHTTPClient(certificateAuthorityFile: server.certificateAuthorityFile, timeout: 0.4)
        let error = try await urlError { _ = try await client.data(for: URLRequest(url: server.url("/slow/20000"))) }
        #expect(error.code == .timedOut)
        // The route answers 200 after 20 s unless cut, so this error alone proves the transfer was
        // cut. (No wall-clock bound: on a loaded machine the suite's other tests can keep the
        // cooperative pool busy for seconds.)
        var short = URLRequest(url: server.url("/slow/20000"))
        short.timeoutInterval = 0.3
        let shortError = try await urlError {
            _ = try await CurlHTTPClient(certificateAuthorityFile: server.certificateAuthorityFile).data(for: short)
        }
        #expect(shortError.code == .timedOut)
    }

    @Test("cancelling the task stops the transfer with URLError.cancelled")
    func cancellation() async throws {
        let server = try CurlTestServer(routes: CurlTestServer.standardRoutes)
        defer { server.stop() }
        let client = CurlHTTPClient(certificateAuthorityFile: server.certificateAuthorityFile)
        let url = server.url("/slow/20000")
        let task = Task { try await client.data(for: URLRequest(url: url)) }
        try await Task.sleep(nanoseconds: 200_000_000)
        task.cancel()
        let error = try await urlError { _ = try await task.value }
        #expect(error.code == .cancelled)
        // The route answers 200 after 20 s unless cut, so this error alone proves the transfer was
        // cut. (No wall-clock bound: on a loaded machine the suite's other tests can keep the
        // cooperative pool busy for seconds.)
    }

    @Test("only http and https URLs are requested, and a method or field name must be a token")
    func refusedRequests() async throws {
        let client = CurlHTTPClient(certificateAuthorityFile: nil)
        let scheme = try await urlError { _ = try await client.data(for: URLRequest(url: URL(string: "file:///etc/passwd")!)) }
        #expect(scheme.code == .unsupportedURL)
        var method = URLRequest(url: URL(string: "http://127.0.0.1:1/")!)
        method.httpMethod = "GET / HTTP/1.0"
        #expect(try await urlError { _ = try await client.data(for: method) }.code == .badURL)
        var name = URLRequest(url: URL(string: "http://127.0.0.1:1/")!)
        name.setValue("value", forHTTPHeaderField: "Bad Name")
        #expect(try await urlError { _ = try await client.data(for: name) }.code == .badURL)
    }

    @Test("blockingData sends on the calling thread: the same request and answer; a refusal is the same URLError")
    func blocking() throws {
        let server = try CurlTestServer(tls: false, routes: CurlTestServer.standardRoutes)
        defer { server.stop() }
        let client = CurlHTTPClient(certificateAuthorityFile: nil, timeout: 10)
        var request = URLRequest(url: server.url("/echo"))
        request.httpMethod = "POST"
        request.httpBody = Data("{\"to\":\"+14155550123\"}".utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (data, response) = try client.blockingData(for: request)
        #expect(response.statusCode == 201)
        #expect(response.value(forHTTPHeaderField: "X-Reply") == "yes")
        let echoed = try json(data)
        #expect(echoed["method"] == "POST" && echoed["body"] == "{\"to\":\"+14155550123\"}")
        #expect(echoed["content-type"] == "application/json" && echoed["expect"] == "")
        let (_, failed) = try client.blockingData(for: URLRequest(url: server.url("/status/503")))
        #expect(failed.statusCode == 503)

        do {
            _ = try client.blockingData(for: URLRequest(url: URL(string: "http://127.0.0.1:1/")!))
            Issue.record("port 1 answered")
        } catch let error as URLError {
            #expect(error.code == .cannotConnectToHost)
        }
    }
}
