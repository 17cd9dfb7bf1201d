// Shared declarations for test/parity/cxx_cross_module.cpp and
// Inputs/parity/cxx_cross_module_lib.cpp.
#include <stdexcept>
#include <string>

// One static local, emitted (linkonce_odr) by both modules.
inline int &shared_counter_ref() {
  static int counter = 0;
  return counter;
}
inline int shared_counter() { return shared_counter_ref(); }
inline int bump_shared() { return ++shared_counter_ref(); }

template <typename T> struct Registry { static T value; };
template <typename T> T Registry<T>::value = T();

// Typeinfo and vtable emitted by both modules (no key function).
struct SharedError : std::runtime_error {
  int code;
  SharedError(const char *w, int c) : std::runtime_error(w), code(c) {}
};

struct Shape {
  virtual ~Shape() {}
  virtual std::string describe() const = 0;
  virtual int perimeter() const = 0;
};

extern int lib_side_ctor_ran;
int lib_read_shared();
int lib_read_registry();
void lib_throw(int kind);
std::string lib_call_and_catch(void (*f)());
Shape *lib_make_shape(int sides);
