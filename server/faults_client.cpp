#include "server/faults_client.h"

#include <simdjson.h>
#include <boost/program_options.hpp>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "server/report_client.h"

namespace dynamod {
namespace {

namespace po = boost::program_options;
namespace http = boost::beast::http;

constexpr const char* kUsage =
    "dynamod faults: manage a running dynamod's injected faults\n\n"
    "  dynamod faults list                     the rules, with how often each matched and fired\n"
    "  dynamod faults add '<rule JSON>'        e.g. "
    "'{\"operations\":[\"GetItem\"],\"error\":\"ThrottlingException\",\"times\":2}'\n"
    "  dynamod faults delete ID                remove one rule\n"
    "  dynamod faults clear                    remove every rule\n\n"
    "Rules are described in docs/testing-companion.md. Requests are signed with AWS_ACCESS_KEY_ID /\n"
    "AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN, AWS_REGION) when they are set, as a server with\n"
    "--credentials requires for changes.\n\nOptions";

// One line per rule: its id, counters and the rule itself.
void print_rules(const std::string& json) {
  simdjson::dom::parser parser;
  simdjson::dom::element root = parser.parse(json);
  simdjson::dom::array rules = root["rules"].get_array();
  if (rules.size() == 0) {
    std::cout << "no fault rules\n";
    return;
  }
  for (simdjson::dom::element rule : rules) {
    std::string_view id = rule["id"].get_string();
    std::uint64_t matched = rule["matched"].get_uint64();
    std::uint64_t fired = rule["fired"].get_uint64();
    std::cout << id << "  fired " << fired << " of " << matched << " matches  " << simdjson::to_string(rule) << "\n";
  }
}

}  // namespace

int run_faults_command(int argc, char** argv) {
  std::string endpoint = "http://127.0.0.1:8000";
  if (const char* env = std::getenv("DYNAMOD_ENDPOINT")) endpoint = env;
  std::vector<std::string> words;
  po::options_description desc(kUsage);
  // clang-format off
  desc.add_options()
    ("help,h", "Print this help and exit.")
    ("endpoint", po::value(&endpoint)->default_value(endpoint), "The server's URL (or DYNAMOD_ENDPOINT).")
    ("json", "list: print the JSON instead of one line per rule.");
  // clang-format on
  po::options_description hidden;
  hidden.add_options()("words", po::value(&words));
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description positional;
  positional.add("words", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc - 1, argv + 1).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "dynamod faults: " << e.what() << " (see --help)\n";
    return 2;
  }
  // argv[1], "faults", stands where the parser expects the program's name.
  if (vm.count("help") != 0 || words.empty()) {
    std::cout << desc << "\n";
    return vm.count("help") != 0 ? 0 : 2;
  }
  const std::string& action = words[0];
  const bool needs_argument = action == "add" || action == "delete";
  if ((needs_argument && words.size() != 2) || (!needs_argument && words.size() != 1)) {
    std::cerr << "dynamod faults " << action << ": wrong number of arguments (see --help)\n";
    return 2;
  }
  try {
    ServerEndpoint target = parse_endpoint(endpoint);
    const std::optional<ClientCredentials> credentials = ClientCredentials::from_environment();
    if (action == "list") {
      std::string json = fetch(target, credentials, http::verb::get, "/dynamod/faults");
      if (vm.count("json") != 0) std::cout << json << "\n";
      else print_rules(json);
    } else if (action == "add") {
      std::cout << fetch(target, credentials, http::verb::post, "/dynamod/faults", words[1]) << "\n";
    } else if (action == "delete") {
      fetch(target, credentials, http::verb::delete_, "/dynamod/faults/" + words[1]);
      std::cout << "deleted rule " << words[1] << "\n";
    } else if (action == "clear") {
      fetch(target, credentials, http::verb::delete_, "/dynamod/faults");
      std::cout << "cleared\n";
    } else {
      std::cerr << "dynamod faults: unknown action '" << action << "' (see --help)\n";
      return 2;
    }
  } catch (const std::exception& e) {
    std::cerr << "dynamod faults " << action << ": " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace dynamod
