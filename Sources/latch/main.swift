import Foundation

// `latch`: the command-line client of Latch. The logic lives in LatchCommand (a non-main file), so
// nothing here is main-actor code that other threads call.
exit(
    await LatchCommand.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
