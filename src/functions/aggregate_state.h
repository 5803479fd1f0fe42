#pragma once

// Aggregate states that own an object on the heap. A state slot is raw memory laid out per
// group (function.h's AggregateFunction): the engine calls `init` on a fresh slot, then `update`
// and `merge` any number of times, `finalize`, and `destroy` once at the end; it never copies
// the slot of a function that needs destroying. A state of variable size (a list, a map, a
// string, a sketch) keeps in its slot a pointer to an object it owns. `HeapState` is that
// pointer with its ownership rules written once; `HeapStateAggregate` is an aggregate whose
// whole slot is one.

#include <cstdint>
#include <type_traits>
#include <utility>

#include "functions/function.h"

namespace ember::functions {

/// An owning pointer that lives in an aggregate's state slot, alone or as a field of a state
/// struct: empty until the aggregate first needs its object, which `destroy` releases.
///
/// No constructor or destructor runs on a slot, so this type has no destructor and relies on no
/// constructor: `init` (or `create`) starts it and `destroy` ends it. It is trivially copyable
/// only so that a state struct holding it can be started with `= {}` in `init`; a copy of the
/// handle is never a second owner (copy the object instead: `assign(*other)`). As with
/// `std::unique_ptr`, constness is shallow: the handle of a const state (a merge's source)
/// still gives a mutable object, for sources that must be compacted before they are read.
template <typename T>
class HeapState {
 public:
  /// Starts a slot empty. The slot must not hold an object: its old contents are overwritten.
  void init() { ptr_ = nullptr; }
  /// Starts a slot holding a new object made from `args`, for states that exist from their
  /// `init`, or fills an empty one. The slot must not hold an object: its old contents are
  /// overwritten.
  template <typename... Args>
  T& create(Args&&... args) {
    ptr_ = new T(std::forward<Args>(args)...);
    return *ptr_;
  }

  /// The object, or null while the slot is empty.
  T* get() const { return ptr_; }
  explicit operator bool() const { return ptr_ != nullptr; }
  /// The object; the slot must not be empty.
  T& operator*() const { return *ptr_; }
  T* operator->() const { return ptr_; }

  /// The object, made from `args` first when the slot is empty (`args` are unused otherwise).
  template <typename... Args>
  T& get_or_create(Args&&... args) {
    if (!ptr_) ptr_ = new T(std::forward<Args>(args)...);
    return *ptr_;
  }

  /// Sets the object to `value`: assigned to the object when there is one, else made from it.
  /// A merge into an empty state copies the source's object this way (`assign(*src)`).
  template <typename U>
  T& assign(U&& value) {
    if (ptr_)
      *ptr_ = std::forward<U>(value);
    else
      ptr_ = new T(std::forward<U>(value));
    return *ptr_;
  }

  /// Releases the object, if any, and leaves the slot empty.
  void destroy() {
    delete ptr_;
    ptr_ = nullptr;
  }

 private:
  T* ptr_ = nullptr;
};

static_assert(sizeof(HeapState<int>) == sizeof(int*));
static_assert(std::is_trivially_copyable_v<HeapState<int>>);

/// An aggregate whose whole state slot is one `HeapState<T>`. A slot starts empty; subclasses
/// make the object when they first need it (`state(s).get_or_create(...)`), so every method
/// that reads a state must accept an empty one, and `destroy` releases it. A subclass whose
/// state exists from the start overrides `init` with `state(s).create(...)`.
template <typename T>
class HeapStateAggregate : public AggregateFunction {
 public:
  size_t state_size() const final { return sizeof(HeapState<T>); }
  void init(uint8_t* s) const override { state(s).init(); }
  void destroy(uint8_t* s) const final { state(s).destroy(); }
  bool needs_destroy() const final { return true; }

 protected:
  /// The state held in slot `s`.
  static HeapState<T>& state(uint8_t* s) { return *reinterpret_cast<HeapState<T>*>(s); }
  static const HeapState<T>& state(const uint8_t* s) {
    return *reinterpret_cast<const HeapState<T>*>(s);
  }
};

}  // namespace ember::functions
