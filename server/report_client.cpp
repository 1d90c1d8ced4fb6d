#include "server/report_client.h"

#include <fmt/format.h>
#include <simdjson.h>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/program_options.hpp>

#include <cstdlib>
#include <iostream>
#include <string>

namespace dynamod {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace po = boost::program_options;
using simdjson::dom::element;

}  // namespace

ServerEndpoint parse_endpoint(const std::string& url) {
  std::string rest = url;
  if (rest.rfind("http://", 0) == 0) rest = rest.substr(7);
  else if (rest.find("://") != std::string::npos)
    throw std::runtime_error("only http:// endpoints are supported: " + url);
  if (auto slash = rest.find('/'); slash != std::string::npos) rest.resize(slash);
  auto colon = rest.rfind(':');
  if (colon == std::string::npos) return {rest, "80"};
  return {rest.substr(0, colon), rest.substr(colon + 1)};
}

std::string fetch(const ServerEndpoint& endpoint, const std::optional<ClientCredentials>& credentials,
                  http::verb method, const std::string& target, const std::string& body) {
  asio::io_context io;
  asio::ip::tcp::resolver resolver(io);
  beast::tcp_stream stream(io);
  stream.expires_after(std::chrono::seconds(30));
  stream.connect(resolver.resolve(endpoint.host, endpoint.port));
  http::request<http::string_body> request(method, target, 11);
  request.set(http::field::host, endpoint.host + ":" + endpoint.port);
  if (!body.empty()) request.set(http::field::content_type, "application/json");
  request.body() = body;
  request.prepare_payload();
  if (credentials) sign_request(request, *credentials, std::chrono::system_clock::now());
  http::write(stream, request);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  http::read(stream, buffer, response);
  beast::error_code ec;
  stream.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ec);
  if (response.result() != http::status::ok) {
    throw std::runtime_error(fmt::format("{} {} answered {}: {}", std::string_view(http::to_string(method)), target,
                                         response.result_int(), response.body()));
  }
  return std::move(response.body());
}

namespace {

std::string money(double usd) {
  return usd < 0.005 && usd > 0 ? fmt::format("{:.4f}", usd) : fmt::format("{:.2f}", usd);
}

std::string duration_text(double seconds) {
  auto s = static_cast<long long>(seconds);
  if (s < 3600) return fmt::format("{}m {:02}s", s / 60, s % 60);
  return fmt::format("{}h {:02}m", s / 3600, (s % 3600) / 60);
}

double number(element e, const char* key) {
  double v = 0;
  element member;
  if (e[key].get(member) != simdjson::SUCCESS) return 0;
  if (member.get(v) == simdjson::SUCCESS) return v;
  std::int64_t i = 0;
  if (member.get(i) == simdjson::SUCCESS) return static_cast<double>(i);
  std::uint64_t u = 0;
  if (member.get(u) == simdjson::SUCCESS) return static_cast<double>(u);
  return 0;
}

std::string text(element e, const char* key) {
  std::string_view v;
  if (e[key].get(v) != simdjson::SUCCESS) return {};
  return std::string(v);
}

void print_cost_line(element line, const std::string& name) {
  if (line["on_demand_monthly_usd"].error() == simdjson::SUCCESS) {
    element p = line["provisioned"];
    fmt::print("  {:<34} {:>9.2f} {:>9.2f} {:>11} {:>7}/{:<6} {:>10} {:>6.0f}% {:>9.1f}% {:>12} {:>10} {:>9}\n", name,
               number(line, "read_units_per_second"), number(line, "write_units_per_second"),
               money(number(line, "on_demand_monthly_usd")), static_cast<long long>(number(p, "read_capacity_units")),
               static_cast<long long>(number(p, "write_capacity_units")), money(number(p, "monthly_usd")),
               number(p, "utilisation") * 100, number(line, "break_even_utilisation") * 100, text(line, "cheaper"),
               static_cast<long long>(number(line, "items")), money(number(line, "storage_standard_monthly_usd")));
  } else if (text(line, "kind") == "vector") {
    // Vector units are bytes with no published price (docs/vector-search.md).
    fmt::print("  {:<34} {:>48} {:>39} {:>10} {:>9}\n", name,
               fmt::format("search {:.0f} B, write {:.0f} B", number(line, "vector_search_bytes"),
                           number(line, "vector_write_bytes")),
               "(vector units: not priced)", static_cast<long long>(number(line, "items")),
               money(number(line, "storage_standard_monthly_usd")));
  } else {
    fmt::print("  {:<34} {:>9} {:>9} {:>11} {:>14} {:>10} {:>7} {:>10} {:>12} {:>10} {:>9}\n", name, "", "", "",
               "(table's)", "", "", "", "", static_cast<long long>(number(line, "items")),
               money(number(line, "storage_standard_monthly_usd")));
  }
}

void print_cost(const std::string& json) {
  simdjson::dom::parser parser;
  element root = parser.parse(json);
  fmt::print("Usage since {} ({} observed), {} prices, per {}-hour month, USD\n\n", text(root, "since"),
             duration_text(number(root, "window_seconds")), text(root, "prices"), number(root, "hours_per_month"));
  fmt::print("  {:<34} {:>9} {:>9} {:>11} {:>14} {:>10} {:>7} {:>10} {:>12} {:>10} {:>9}\n", "table / index", "reads/s",
             "writes/s", "on-demand", "provisioned", "prov. $", "util.", "break-even", "cheaper", "items", "storage");
  for (element table : root["tables"].get_array()) {
    std::string region = text(table, "region");
    std::string head = (region.empty() ? "" : region + " ") + text(table, "table");
    fmt::print("{} ({}, {})\n", head, text(table, "billing_mode"), text(table, "table_class"));
    for (element line : table["lines"].get_array()) {
      std::string index = text(line, "index");
      print_cost_line(line, index.empty() ? "(table)" : index + " (" + text(line, "kind") + ")");
    }
  }
  simdjson::dom::array deleted = root["deleted_tables"].get_array();
  if (deleted.size() != 0) {
    fmt::print("deleted since\n");
    for (element line : deleted) print_cost_line(line, text(line, "table"));
  }
  element total = root["total"];
  fmt::print("\nTotal per month: on-demand {}  |  provisioned {}  |  storage {}\n",
             money(number(total, "on_demand_monthly_usd")), money(number(total, "provisioned_monthly_usd")),
             money(number(total, "storage_monthly_usd")));
  fmt::print(
      "Provisioned capacity is sized for the busiest second seen; it is cheaper than on-demand once its\n"
      "utilisation passes the break-even column (AWS's guidance rounds it to 35%).\n");
}

void print_patterns(const std::string& json) {
  simdjson::dom::parser parser;
  element root = parser.parse(json);
  fmt::print("Access patterns since {}, costliest first\n\n", text(root, "since"));
  fmt::print("{:>9} {:>11} {:>11} {:>15}  {}\n", "requests", "read units", "write units", "read/returned", "pattern");
  for (element p : root["patterns"].get_array()) {
    std::string ratio;
    if (p["items_read"].error() == simdjson::SUCCESS) {
      ratio = fmt::format("{}/{}", static_cast<long long>(number(p, "items_read")),
                          static_cast<long long>(number(p, "items_returned")));
    }
    std::string flags;
    for (element f : p["flags"].get_array()) {
      std::string_view flag = f.get_string();
      flags += flags.empty() ? "  [" : ", ";
      flags += flag;
    }
    if (!flags.empty()) flags += "]";
    if (p["vector_search_bytes"].error() == simdjson::SUCCESS) {
      flags += fmt::format("  (vector search {:.0f} B, vector write {:.0f} B)", number(p, "vector_search_bytes"),
                           number(p, "vector_write_bytes"));
    }
    std::string region = text(p, "region");
    fmt::print("{:>9} {:>11.1f} {:>11.1f} {:>15}  {}{}{}\n", static_cast<long long>(number(p, "count")),
               number(p, "read_units"), number(p, "write_units"), ratio, region.empty() ? "" : region + " ",
               text(p, "pattern"), flags);
  }
}

}  // namespace

int run_report_command(int argc, char** argv) {
  const std::string command = argv[1];
  std::string endpoint = "http://127.0.0.1:8000";
  if (const char* env = std::getenv("DYNAMOD_ENDPOINT")) endpoint = env;
  po::options_description desc("dynamod " + command + ": print a running dynamod's " +
                               (command == "cost" ? "cost report" : "access-pattern report") +
                               "\n\nRequests are signed with AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (and "
                               "AWS_SESSION_TOKEN, AWS_REGION)\nwhen they are set, as a server with --credentials "
                               "requires for --reset.\n\nOptions");
  // clang-format off
  desc.add_options()
    ("help,h", "Print this help and exit.")
    ("endpoint", po::value(&endpoint)->default_value(endpoint), "The server's URL (or DYNAMOD_ENDPOINT).")
    ("json", "Print the report's JSON instead of a table.")
    ("reset", "Start the ledger over (both reports), after printing the report.");
  // clang-format on
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc - 1, argv + 1, desc), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "dynamod " << command << ": " << e.what() << " (see --help)\n";
    return 2;
  }
  if (vm.count("help") != 0) {
    std::cout << desc << "\n";
    return 0;
  }
  try {
    ServerEndpoint target = parse_endpoint(endpoint);
    const std::optional<ClientCredentials> credentials = ClientCredentials::from_environment();
    std::string json = fetch(target, credentials, http::verb::get, "/dynamod/" + command);
    if (vm.count("json") != 0) {
      std::cout << json << "\n";
    } else if (command == "cost") {
      print_cost(json);
    } else {
      print_patterns(json);
    }
    if (vm.count("reset") != 0) {
      fetch(target, credentials, http::verb::post, "/dynamod/cost/reset");
      std::cout << "ledger reset\n";
    }
  } catch (const std::exception& e) {
    std::cerr << "dynamod " << command << ": " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace dynamod
