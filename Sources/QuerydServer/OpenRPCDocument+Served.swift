// The OpenRPC document as this daemon serves it: the full document minus gated methods that are off.

import QuerydJSON

extension OpenRPCDocument {
    /// The document listing exactly the `served` methods (other members unchanged).
    static func served(_ served: [String]) -> JSONValue {
        // The text is protocol/openrpc.json, compiled in and parsed by DispatchTests, so it always parses.
        guard case .object(var document) = try! JSONParser.parse(text),
            case .array(let methods) = document["methods"]
        else { preconditionFailure("OpenRPCDocument.text is not an OpenRPC document") }
        let names = Set(served + Server.protocolNotifications)
        document["methods"] = .array(methods.filter { names.contains($0["name"]?.stringValue ?? "") })
        return .object(document)
    }
}
