import Dispatch
import Foundation
import LatchLocking
import Testing

@testable import LatchHTTP

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct ConcurrencyTests {
    @Test func manyConcurrentRequestsOverRawSockets() throws {
        let server = try TestServer(threadCount: 4) { router in
            router.add("GET", "/n/{n}") { request in .text(200, request.pathParameters["n"]!) }
        }
        let port = server.port
        let failures = Locked<Int>(0)
        let ids = Locked<Set<String>>([])
        Background.concurrentPerform(iterations: 200, threads: 16) { index in
            guard let response = try? RawHTTPClient.exchange(port: port, method: "GET", target: "/n/\(index)"),
                response.status == 200, response.text == "\(index)", let id = response.headers["x-request-id"]
            else {
                failures.add(1)
                return
            }
            ids.withLock { _ = $0.insert(id) }
        }
        #expect(failures.load() == 0)
        #expect(ids.withLock { $0.count } == 200)
    }

    @Test func aBlockingHandlerDoesNotStallOtherWorkers() throws {
        let server = try TestServer(threadCount: 4) { router in
            router.add("GET", "/slow") { _ in
                usleep(400_000)
                return .text(200, "slow")
            }
            router.add("GET", "/fast") { _ in .text(200, "fast") }
        }
        let port = server.port
        let slowDone = Background.run {
            _ = try? RawHTTPClient.exchange(port: port, method: "GET", target: "/slow")
        }
        usleep(50_000)
        let start = ContinuousClock.now
        var fastCount = 0
        for _ in 0..<12 where (try? server.send("GET", "/fast"))?.text == "fast" { fastCount += 1 }
        // Connections land on workers round-robin-ish; most must not wait for the slow one.
        #expect(fastCount == 12)
        #expect(ContinuousClock.now - start < .seconds(2))
        slowDone.wait()
    }

    @Test func urlSessionClientsWork() async throws {
        let server = try TestServer { router in
            router.add("POST", "/{tenant}/token") { request in
                let form = try request.formParameters()
                return .json(
                    200, Array(#"{"tenant":"\#(request.pathParameters["tenant"]!)","grant":"\#(form["grant_type"] ?? "")"}"#.utf8)
                )
            }
        }
        let port = server.port
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<16 {
                group.addTask {
                    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/t\(index)/token")!)
                    request.httpMethod = "POST"
                    request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
                    request.setValue(Self.correlationID(index), forHTTPHeaderField: "client-request-id")
                    request.httpBody = Data("grant_type=refresh_token".utf8)
                    let (data, response) = try await URLSession.shared.data(for: request)
                    let http = response as! HTTPURLResponse
                    #expect(http.value(forHTTPHeaderField: "client-request-id") == Self.correlationID(index))
                    #expect(String(decoding: data, as: UTF8.self) == #"{"tenant":"t\#(index)","grant":"refresh_token"}"#)
                    return http.statusCode
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 16))
    }

    /// A distinct UUID per index, as MSAL sends its correlation id.
    static func correlationID(_ index: Int) -> String {
        let hex = String(index, radix: 16)
        return "6F2D0000-0000-4000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex.uppercased()
    }
}
