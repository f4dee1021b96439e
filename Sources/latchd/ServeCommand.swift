import Dispatch
import Foundation
import LatchServer

/// `latchd serve`: runs the server until SIGINT or SIGTERM, then drains in-flight requests.
enum ServeCommand {
    static func run(_ options: ServeOptions) throws -> Int32 {
        if let url = options.databaseURL, !url.hasPrefix("sqlite:") {
            throw UsageError("option '--database-url': only the embedded SQLite store is available in this build")
        }
        var configuration = LatchServerConfiguration()
        try configuration.apply(configFile: options.configFile, environment: ProcessInfo.processInfo.environment)
        if let format = options.logFormat {
            configuration.log = .standardError(format: format == .json ? .json : .text)
        }
        if let listen = options.listen { try configuration.setListen(listen) }
        if let directory = options.dataDirectory { configuration.dataDirectory = directory }
        if let url = options.publicURL { configuration.publicURL = url }
        if options.development || options.emulator { configuration.development = true }
        if let threads = options.httpThreads { configuration.httpThreads = threads }
        if options.durability == .normal { configuration.durable = false }
        if options.emulator {
            configuration.log.warning("--emulator: the Firebase emulator endpoints are not available yet; running with --dev")
        }
        if options.tls || options.tlsCertificateFile != nil {
            configuration.log.warning("--tls: HTTPS is not available in this build yet; serving plain HTTP")
        }

        let app = try LatchServerApp(configuration: configuration)
        try app.start()
        if configuration.log.format == .json {
            for line in app.banner().split(separator: "\n") {
                configuration.log.info(line.trimmingCharacters(in: .whitespaces))
            }
        } else {
            FileHandleOutput.standardError(app.banner() + "\n")
        }

        let stop = DispatchSemaphore(value: 0)
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let queue = DispatchQueue(label: "latchd.signals")
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { stop.signal() }
            source.resume()
            return source
        }
        stop.wait()
        configuration.log.info("shutting down: finishing in-flight requests")
        app.shutdown(timeout: 10)
        sources.forEach { $0.cancel() }
        configuration.log.info("stopped")
        return 0
    }
}
