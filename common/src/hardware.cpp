// PLACEHOLDER: implemented by the hardware-table work.
#include "tutor/hardware.hpp"
