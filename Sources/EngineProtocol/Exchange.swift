import ConfigJSON
import Engine
import Traces

/// The wording of one wait for an engine's answer: the run, the line, what TraceSim waited for.
struct Exchange {
    let connection: any EngineConnection
    let run: String
    let awaited: Awaited
    let timeoutSeconds: Double

    /// What TraceSim waits for. An event's wording is built only when a failure needs it: most
    /// exchanges end in a done and never say what they waited for.
    enum Awaited {
        case hello
        /// The done for the message of this `type`.
        case done(for: String)
    }

    /// What TraceSim waited for, in words.
    var waitingFor: String {
        switch awaited {
        case .hello: "its hello"
        case .done(let type): "its done for \(type)"
        }
    }

    /// A problem with the line just read.
    func failure(_ what: String) -> EngineFailure {
        EngineFailure("run \(run): output line \(connection.linesRead): \(what)")
    }

    /// A problem while waiting for a line.
    func failure(_ failure: EngineProcess.Failure) -> EngineFailure {
        let lines = connection.linesRead
        let place =
            switch lines {
            case 0: "before any output"
            case 1 where connection.session != nil: "after its hello"
            default: "after output line \(lines)"
            }
        let what: String
        switch failure {
        case .timedOut:
            what = "no answer within \(ProtocolLine.seconds(timeoutSeconds)) s while waiting for \(waitingFor)"
        case .exited(let how): what = "\(how) while TraceSim waited for \(waitingFor)"
        case .inputClosed: what = "it closed its input (standard input) while TraceSim waited for \(waitingFor)"
        case .lineTooLong:
            return EngineFailure(
                "run \(run): output line \(lines + 1): longer than \(EngineProcess.maximumLineBytes) bytes")
        case .writeFailed(let reason): what = "writing to the engine failed (\(reason)) before \(waitingFor)"
        case .spawnFailed(let reason): what = "the engine could not be started: \(reason)"
        }
        return EngineFailure("run \(run): \(place): \(what)")
    }

    /// Parses a line into a JSON object and its `type`.
    func message(_ line: ArraySlice<UInt8>) throws(EngineFailure) -> (JSONValue, String) {
        do {
            return try JSONValue.message(line)
        } catch {
            throw failure("\(error.message): \(Self.excerpt(line))")
        }
    }

    /// Reads an answer; unknown types and malformed members fail.
    func answer(_ value: JSONValue, type: String) throws(EngineFailure) -> EngineAnswer {
        do {
            guard let answer = try EngineAnswer.parse(value, type: type) else {
                if EngineEvent.types.contains(type) || type == "reset" {
                    throw failure("'\(type)' is a message TraceSim sends, not an answer")
                }
                throw failure("unknown message type '\(type)'")
            }
            return answer
        } catch let failure as EngineFailure {
            throw failure
        } catch let error as ProtocolMessageError {
            throw failure(error.message)
        } catch {
            throw failure("\(error)")
        }
    }

    /// The start of an offending line, quoted: enough to recognise a traceback or a stray print.
    static func excerpt(_ line: ArraySlice<UInt8>) -> String {
        let text = String(decoding: line, as: UTF8.self)
        let head = text.prefix(60)
        var quoted = ""
        JSONStringLiteral.append(String(head) + (head.count < text.count ? "…" : ""), to: &quoted)
        return quoted
    }

    /// Sends TraceSim's `hello` and reads the engine's: the version and capabilities it will
    /// speak, kept on `connection`. Any failure ends the engine.
    ///
    /// An engine may write its hello and exit before TraceSim's hello reaches it: what it
    /// wrote is read first, so its end is reported at the next message, in the same words
    /// whichever came first.
    static func greet(_ connection: any EngineConnection, run: String, timeoutSeconds: Double) throws(EngineFailure)
        -> EngineSession
    {
        let deadline = Deadline(secondsFromNow: timeoutSeconds)
        let exchange = Exchange(
            connection: connection, run: run, awaited: .hello, timeoutSeconds: timeoutSeconds)
        do {
            do {
                try connection.send(RunMessages.helloLine, deadline: deadline)
            } catch {
                switch error {
                case .exited, .inputClosed: break
                case .timedOut, .lineTooLong, .writeFailed, .spawnFailed: throw error
                }
            }
            let line = try connection.readLine(deadline: deadline)
            let (value, type) = try exchange.message(line)
            guard type == "hello" else { throw exchange.failure("expected hello, not '\(type)'") }
            guard case .hello(let version, _, let capabilities, let settings) = try exchange.answer(value, type: type)
            else {
                throw exchange.failure("expected hello")
            }
            let session: EngineSession
            do {
                session = try EngineSession(version: version, capabilities: capabilities, settings: settings)
            } catch {
                throw exchange.failure(error.message)
            }
            connection.session = session
            return session
        } catch let failure as EngineFailure {
            connection.terminate()
            throw failure
        } catch let failure as EngineProcess.Failure {
            connection.terminate()
            throw exchange.failure(failure)
        } catch {
            connection.terminate()
            throw EngineFailure("run \(run): \(error)")
        }
    }
}
