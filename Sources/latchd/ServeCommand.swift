import Dispatch
import Foundation
import LatchServer

/// `latchd serve`: runs the server until SIGINT or SIGTERM, then drains in-flight requests.
enum ServeCommand {
    static let options: Set<String> = [
        "listen", "data-dir", "config", "database-url", "public-url", "durability", "http-threads",
    ]

    static func run(_ arguments: Arguments) throws -> Int32 {
        var configuration = LatchServerConfiguration()
        try configuration.apply(configFile: arguments.value("config"), environment: ProcessInfo.processInfo.environment)
        if let listen = arguments.value("listen") { try configuration.setListen(listen) }
        if let directory = arguments.value("data-dir") { configuration.dataDirectory = directory }
        if let url = arguments.value("public-url") { configuration.publicURL = url }
        if arguments.flag("dev") || arguments.flag("emulator") { configuration.development = true }
        if let threads = arguments.value("http-threads") {
            guard let count = Int(threads), count > 0 else { throw UsageError("--http-threads expects a positive number") }
            configuration.httpThreads = count
        }
        switch arguments.value("durability") {
        case nil, "full": break
        case "normal": configuration.durable = false
        case let other?: throw UsageError("--durability is 'full' or 'normal', not '\(other)'")
        }
        if let url = arguments.value("database-url"), !url.hasPrefix("sqlite:") {
            throw UsageError("--database-url: only the embedded SQLite store is available in this build")
        }
        if arguments.flag("emulator") {
            configuration.log.warning("--emulator: the Firebase emulator endpoints are not available yet; running with --dev")
        }

        let app = try LatchServerApp(configuration: configuration)
        try app.start()
        FileHandleOutput.standardError(app.banner() + "\n")

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
