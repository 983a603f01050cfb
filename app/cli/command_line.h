#pragma once
// The parsed command line of one fxscope-cli subcommand: positional arguments and --options.

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fxs::cli {

enum ExitCode { Success = 0, UsageError = 1, BadInput = 2, RuntimeFailure = 3, NumericsDiffer = 6 };

class CommandLine {
public:
    // valueOptions take a value ("--graph NAME", "-o OUT"); flagOptions take none ("--json"); listOptions take
    // every argument up to the next option ("--patterns A B --json"), so positionals cannot follow them.
    // Repeated value options accumulate. Returns an error text on unknown options or missing values.
    std::optional<std::string> parse(const std::vector<std::string> &args, const std::vector<std::string> &valueOptions,
        const std::vector<std::string> &flagOptions, const std::vector<std::string> &listOptions = {});

    const std::vector<std::string> &positional() const { return m_positional; }
    bool flag(const std::string &name) const { return m_flags.count(name) > 0; }
    std::optional<std::string> value(const std::string &name) const;
    std::vector<std::string> values(const std::string &name) const;

private:
    std::vector<std::string> m_positional;
    std::map<std::string, std::vector<std::string>> m_values;
    std::map<std::string, bool> m_flags;
};

// True when args hold --help or -h: the command then prints its usage (printHelp) whatever else the line holds.
bool helpRequested(const std::vector<std::string> &args);
// Prints a command's usage on stdout, as asked for, and gives Success.
int printHelp(const std::string &usage);

} // namespace fxs::cli
