#pragma once
#include <hip_fp8.h>
