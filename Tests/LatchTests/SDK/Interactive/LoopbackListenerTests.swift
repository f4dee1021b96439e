import Foundation
import LatchSDKTesting
import Testing

@testable import Latch

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one-shot loopback redirect listener (RFC 8252 § 7.3) over a real socket.
@Suite("Loopback redirect listener")
struct LoopbackListenerTests {
    /// A GET over a real socket, redirects not followed.
    static func get(_ url: URL) async throws -> (status: Int, body: String) {
        let (data, response) = try await ScriptedBrowser.direct.send(URLRequest(url: url))
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test("it listens on 127.0.0.1 with a random port, ignores other requests, and takes exactly one redirect")
    func oneRedirect() async throws {
        let listener = try LoopbackRedirectListener()
        defer { listener.close() }
        #expect(listener.port > 0)
        #expect(listener.redirectURI.absoluteString == "http://127.0.0.1:\(listener.port)/callback")
        let other = try LoopbackRedirectListener()
        defer { other.close() }
        #expect(other.port != listener.port)

        let base = "http://127.0.0.1:\(listener.port)"
        let favicon = try await Self.get(URL(string: base + "/favicon.ico")!)
        #expect(favicon.status == 404)
        let bare = try await Self.get(URL(string: base + "/callback")!)
        #expect(bare.status == 404, "a request without code or error is not the redirect")
        let elsewhere = try await Self.get(URL(string: base + "/other?code=x&state=y")!)
        #expect(elsewhere.status == 404)

        let waiting = Task { try await listener.redirect(timeout: 30) }
        let done = try await Self.get(URL(string: base + "/callback?code=the-code&state=s-1")!)
        #expect(done.status == 200)
        #expect(done.body.contains("You can close this window"))
        let redirect = try await waiting.value
        #expect(redirect.absoluteString == base + "/callback?code=the-code&state=s-1")

        // Stopped: a second redirect finds nobody listening.
        try await Task.sleep(nanoseconds: 300_000_000)
        await #expect(throws: (any Error).self) { _ = try await Self.get(URL(string: base + "/callback?code=2&state=s")!) }
    }

    @Test("an error redirect is a redirect too")
    func errorRedirect() async throws {
        let listener = try LoopbackRedirectListener()
        defer { listener.close() }
        let target = URL(string: "http://127.0.0.1:\(listener.port)/callback?error=access_denied&state=s")!
        let answer = try await Self.get(target)
        #expect(answer.status == 200)
        #expect(try await listener.redirect(timeout: 5) == target)
    }

    @Test("closing the listener, the timeout, or cancelling the waiter is userCanceled")
    func canceled() async throws {
        let closed = try LoopbackRedirectListener()
        let waiting = Task { try await closed.redirect(timeout: 30) }
        try await Task.sleep(nanoseconds: 100_000_000)
        closed.close()
        let error = await #expect(throws: LatchError.self) { _ = try await waiting.value }
        #expect(error?.code == .userCanceled)

        let slow = try LoopbackRedirectListener()
        defer { slow.close() }
        let started = Date()
        let timedOut = await #expect(throws: LatchError.self) { _ = try await slow.redirect(timeout: 0.5) }
        #expect(timedOut?.code == .userCanceled)
        #expect(Date().timeIntervalSince(started) < 10)

        let abandoned = try LoopbackRedirectListener()
        defer { abandoned.close() }
        let task = Task { try await abandoned.redirect(timeout: 60) }
        try await Task.sleep(nanoseconds: 100_000_000)
        task.cancel()
        let cancelled = await #expect(throws: LatchError.self) { _ = try await task.value }
        #expect(cancelled?.code == .userCanceled)
    }

    @Test("request heads are parsed strictly")
    func heads() {
        let port: UInt16 = 4000
        let good = LoopbackRedirectListener.redirect(
            fromHead: "GET /callback?code=a&state=b HTTP/1.1\r\nHost: x\r\n\r\n", port: port)
        #expect(good?.absoluteString == "http://127.0.0.1:4000/callback?code=a&state=b")
        #expect(LoopbackRedirectListener.redirect(fromHead: "POST /callback?code=a HTTP/1.1\r\n\r\n", port: port) == nil)
        #expect(LoopbackRedirectListener.redirect(fromHead: "GET /callbackx?code=a HTTP/1.1\r\n\r\n", port: port) == nil)
        #expect(LoopbackRedirectListener.redirect(fromHead: "GET /callback?state=b HTTP/1.1\r\n\r\n", port: port) == nil)
        #expect(LoopbackRedirectListener.redirect(fromHead: "garbage", port: port) == nil)
    }
}
