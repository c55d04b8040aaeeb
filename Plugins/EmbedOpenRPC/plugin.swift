// EmbedOpenRPC: a build-tool plugin that compiles protocol/openrpc.json into QuerydServer as
// `OpenRPCDocument.text`, so the JSON file is the one source of the document `rpc.discover` serves.
// The file is the command's declared input: editing it regenerates the Swift file and rebuilds.

import PackagePlugin

@main
struct EmbedOpenRPC: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let input = context.package.directoryURL.appending(path: "protocol/openrpc.json")
        let output = context.pluginWorkDirectoryURL.appending(path: "OpenRPCDocument+Text.swift")
        return [
            .buildCommand(
                displayName: "Embedding protocol/openrpc.json in \(target.name)",
                executable: try context.tool(named: "EmbedText").url,
                arguments: [input.path(percentEncoded: false), output.path(percentEncoded: false), "OpenRPCDocument"],
                inputFiles: [input], outputFiles: [output])
        ]
    }
}
