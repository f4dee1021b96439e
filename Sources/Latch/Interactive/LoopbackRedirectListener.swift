import Foundation
internal import LatchLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(Glibc) || canImport(Darwin)
    /// The one-shot loopback redirect listener of a native app (RFC 8252 § 7.3): a TCP socket on
    /// `127.0.0.1` with a port the system picks, whose redirect URI is
    /// `http://127.0.0.1:{port}/callback`.
    ///
    /// It answers every request on its own thread. A `GET /callback` carrying a `code` or an `error`
    /// (an authorization response, RFC 6749 § 4.1.2) is the redirect: the browser gets a small
    /// "you can close this window" page, the listener stops and ``redirect(timeout:)`` returns the
    /// URL. Anything else (a favicon, a probe, a request without either parameter) gets a 404 and the
    /// listener keeps waiting. ``close()``, the timeout, or cancelling the waiting task stop it with
    /// ``LatchError/Code/userCanceled``.
    final class LoopbackRedirectListener: Sendable {
        /// The port the system picked.
        let port: UInt16
        /// The path of the redirect URI.
        static let callbackPath = "/callback"
        private let descriptor: Int32
        private let stopped = Locked(false)
        private let gate = ResumeOnce<URL>()

        /// The redirect URI to send as `redirect_uri`: `http://127.0.0.1:{port}/callback`.
        var redirectURI: URL { URL(string: "http://127.0.0.1:\(port)\(Self.callbackPath)")! }

        /// Binds `127.0.0.1:0`, listens, and starts answering.
        /// - Throws: ``LatchError/Code/internal`` when no socket could be bound.
        init() throws {
            #if canImport(Glibc)
                let socketType = Int32(SOCK_STREAM.rawValue)
            #else
                let socketType = SOCK_STREAM
            #endif
            let descriptor = socket(AF_INET, socketType, 0)
            guard descriptor >= 0 else { throw Self.failure("socket") }
            var address = sockaddr_in()
            #if canImport(Darwin)
                address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0, listen(descriptor, 8) == 0 else {
                _ = Glue.closeSocket(descriptor)
                throw Self.failure("bind")
            }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }
            guard named == 0 else {
                _ = Glue.closeSocket(descriptor)
                throw Self.failure("getsockname")
            }
            self.descriptor = descriptor
            port = UInt16(bigEndian: address.sin_port)
            let thread = Thread { [self] in serve() }
            thread.name = "latch.loopback-redirect"
            thread.start()
        }

        /// Waits for the redirect.
        /// - Returns: the redirect URL, e.g. `http://127.0.0.1:49152/callback?code=…&state=…`.
        /// - Throws: ``LatchError/Code/userCanceled`` after `timeout` seconds without one, after
        ///   ``close()``, or when the waiting task is cancelled.
        func redirect(timeout: TimeInterval) async throws -> URL {
            let deadline = DispatchTime.now() + timeout
            DispatchQueue.global().asyncAfter(deadline: deadline) { [weak self] in
                self?.stop(Self.canceled("No redirect arrived within \(Int(timeout)) s; the sign-in was abandoned."))
            }
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in gate.install(continuation) }
            } onCancel: {
                stop(Self.canceled("The sign-in was cancelled."))
            }
        }

        /// Stops listening; a waiting ``redirect(timeout:)`` throws ``LatchError/Code/userCanceled``.
        func close() {
            stop(Self.canceled("The redirect listener was closed before the browser came back."))
        }

        private func stop(_ error: LatchError) {
            stopped.withLock { $0 = true }
            gate.resume(with: .failure(error))
        }

        private static func canceled(_ message: String) -> LatchError {
            LatchError(code: .userCanceled, message: message)
        }

        private static func failure(_ call: String) -> LatchError {
            LatchError(code: .internal, message: "The loopback redirect listener could not start (\(call): errno \(errno)).")
        }

        // MARK: - The listening thread

        /// Accepts connections until the redirect arrives or the listener is stopped, then closes
        /// the socket.
        private func serve() {
            defer { _ = Glue.closeSocket(descriptor) }
            while !stopped.withLock({ $0 }) {
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 100) > 0 else { continue }
                let connection = accept(descriptor, nil, nil)
                guard connection >= 0 else { continue }
                if let redirect = answer(connection) {
                    stopped.withLock { $0 = true }
                    gate.resume(with: .success(redirect))
                    return
                }
            }
        }

        /// Reads one request from `connection`, answers it and closes it.
        /// - Returns: the redirect URL when the request was the redirect.
        private func answer(_ connection: Int32) -> URL? {
            defer { _ = Glue.closeSocket(connection) }
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            _ = setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            #if canImport(Darwin)
                // A browser that hangs up early must not raise SIGPIPE in the app.
                var noSignal: Int32 = 1
                _ = setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
            #endif
            guard let head = readHead(connection), let redirect = Self.redirect(fromHead: head, port: port) else {
                write(connection, Self.response(status: "404 Not Found", body: "Not found."))
                return nil
            }
            write(connection, Self.response(status: "200 OK", body: Self.donePage))
            return redirect
        }

        /// The request line and headers, up to the blank line (at most 16 KiB).
        private func readHead(_ connection: Int32) -> String? {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 2048)
            while bytes.count < 16384 {
                let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return nil }
                bytes.append(contentsOf: buffer[0..<count])
                if let text = String(bytes: bytes, encoding: .utf8), text.contains("\r\n\r\n") { return text }
            }
            return nil
        }

        private func write(_ connection: Int32, _ data: [UInt8]) {
            var sent = 0
            while sent < data.count {
                let count = data[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Glue.noSignal) }
                guard count > 0 else { return }
                sent += count
            }
        }

        /// The redirect URL a request head names, when it is `GET /callback?…` with a `code` or an
        /// `error` parameter.
        static func redirect(fromHead head: String, port: UInt16) -> URL? {
            // Lines end with CR LF, one Character in Swift: split on the scalars.
            let requestLine = String(String.UnicodeScalarView(head.unicodeScalars.prefix { $0 != "\r" && $0 != "\n" }))
            let parts = requestLine.split(separator: " ")
            guard parts.count == 3, parts[0] == "GET", parts[2].hasPrefix("HTTP/1.") else { return nil }
            let target = String(parts[1])
            guard let components = URLComponents(string: "http://127.0.0.1:\(port)" + target),
                components.path == callbackPath,
                let items = components.queryItems, items.contains(where: { $0.name == "code" || $0.name == "error" })
            else { return nil }
            return components.url
        }

        private static func response(status: String, body: String) -> [UInt8] {
            let body = Array(body.utf8)
            let head =
                "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.count)\r\n"
                + "Cache-Control: no-store\r\nContent-Security-Policy: default-src 'none'\r\nConnection: close\r\n\r\n"
            return Array(head.utf8) + body
        }

        /// What the browser shows after the redirect.
        static let donePage = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Signed in</title></head>\
            <body><h1 id="done">You can close this window</h1>\
            <p>Return to the application to continue.</p></body></html>
            """
    }

    /// The socket calls whose spelling differs between Glibc and Darwin.
    private enum Glue {
        #if canImport(Glibc)
            static let noSignal = Int32(MSG_NOSIGNAL)
            static func closeSocket(_ descriptor: Int32) -> Int32 { Glibc.close(descriptor) }
        #else
            static let noSignal: Int32 = 0
            static func closeSocket(_ descriptor: Int32) -> Int32 { Darwin.close(descriptor) }
        #endif
    }
#endif
