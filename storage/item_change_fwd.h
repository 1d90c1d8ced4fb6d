#pragma once
// Forward declarations for headers that hold ItemChange by pointer.

namespace dynamod {

class ItemChange;
class CollectionSizes;

}  // namespace dynamod
