extension ReceiverStatus {
    /// The change in words, as the commands print it on standard error:
    ///
    ///     waiting for a GPS receiver                       .searching(device: "auto")
    ///     /dev/ttyACM0: trying 38400 baud                  .connecting(device: "/dev/ttyACM0", baudRate: 38400)
    ///     /dev/ttyACM0: connected at 9600 baud             (`reconnected` when its detail says so)
    ///     drive.nmea: reading                              a file or a stream (no line rate)
    ///     tcp://gps.local:2000: connecting                 a network source: no line rate
    ///     tcp://gps.local:2000: reconnected                a network source's detail says how it reads
    ///     /dev/ttyACM0: disconnected (hang-up); waiting for it to come back
    ///     cannot open '/dev/ttyACM0': permission denied…   an unavailable (or failed) device: its detail
    ///     stopped                                          .ended
    public var summary: String {
        let device = device.string
        switch state {
        case .searching:
            return device == "auto" || device.isEmpty ? "waiting for a GPS receiver" : "waiting for \(device)"
        case .connecting:
            if baudRate == 0 { return "\(device): connecting" }
            return "\(device): trying \(baudRate) baud"
        case .connected:
            if baudRate == 0 { return "\(device): \(detail.isEmpty ? "reading" : detail.string)" }
            let again = detail.string == "reconnected" ? "reconnected" : "connected"
            return "\(device): \(again) at \(baudRate) baud"
        case .disconnected:
            if reason == .unavailable || reason == .failed { return detail.string }
            return "\(device): disconnected (\(reason)); waiting for it to come back"
        case .ended: return "stopped"
        }
    }
}
