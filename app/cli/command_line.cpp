#include "command_line.h"

#include <algorithm>
#include <cstdio>

namespace fxs::cli {

std::optional<std::string> CommandLine::parse(const std::vector<std::string> &args,
    const std::vector<std::string> &valueOptions, const std::vector<std::string> &flagOptions,
    const std::vector<std::string> &listOptions)
{
    auto contains = [](const std::vector<std::string> &v, const std::string &s) {
        return std::find(v.begin(), v.end(), s) != v.end();
    };
    auto isOption = [](const std::string &arg) { return arg.size() >= 2 && arg[0] == '-'; };
    for (size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        if (!isOption(arg)) {
            m_positional.push_back(arg);
            continue;
        }
        std::string inlineValue;
        bool hasInline = false;
        if (auto eq = arg.find('='); eq != std::string::npos && arg.rfind("--", 0) == 0) {
            inlineValue = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
            hasInline = true;
        }
        if (contains(flagOptions, arg) && !hasInline) {
            m_flags[arg] = true;
        } else if (contains(listOptions, arg)) {
            std::vector<std::string> &list = m_values[arg];
            if (hasInline)
                list.push_back(inlineValue);
            else if (i + 1 >= args.size() || isOption(args[i + 1]))
                return "option " + arg + " needs a value";
            while (i + 1 < args.size() && !isOption(args[i + 1]))
                list.push_back(args[++i]);
        } else if (contains(valueOptions, arg)) {
            if (hasInline) {
                m_values[arg].push_back(inlineValue);
            } else {
                if (i + 1 >= args.size())
                    return "option " + arg + " needs a value";
                m_values[arg].push_back(args[++i]);
            }
        } else {
            return "unknown option " + arg;
        }
    }
    return std::nullopt;
}

std::optional<std::string> CommandLine::value(const std::string &name) const
{
    auto it = m_values.find(name);
    if (it == m_values.end() || it->second.empty())
        return std::nullopt;
    return it->second.back();
}

std::vector<std::string> CommandLine::values(const std::string &name) const
{
    auto it = m_values.find(name);
    return it == m_values.end() ? std::vector<std::string>{} : it->second;
}

bool helpRequested(const std::vector<std::string> &args)
{
    return std::any_of(args.begin(), args.end(), [](const std::string &a) { return a == "--help" || a == "-h"; });
}

int printHelp(const std::string &usage)
{
    std::fputs(usage.c_str(), stdout);
    return Success;
}

} // namespace fxs::cli
