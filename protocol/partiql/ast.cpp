#include "protocol/partiql/ast.h"

namespace dynamod::partiql {

const TableRef& Statement::table() const {
  switch (kind()) {
    case StatementKind::Select: return std::get<Select>(body).from;
    case StatementKind::Insert: return std::get<Insert>(body).into;
    case StatementKind::Update: return std::get<Update>(body).table;
    case StatementKind::Delete: return std::get<Delete>(body).from;
    case StatementKind::Exists: break;
  }
  return std::get<Exists>(body).select.from;
}

const std::optional<Returning>& Statement::returning() const {
  static const std::optional<Returning> kNone;
  if (const auto* i = std::get_if<Insert>(&body)) return i->returning;
  if (const auto* u = std::get_if<Update>(&body)) return u->returning;
  if (const auto* d = std::get_if<Delete>(&body)) return d->returning;
  return kNone;
}

}  // namespace dynamod::partiql
