# cmark-gfm, GitHub's CommonMark parser with its extensions (tables), for `tutor sheets`.
# Debian ships it as libcmark-gfm-dev and libcmark-gfm-extensions-dev without a CMake package,
# so the headers and libraries are found by name; where they are not installed, the upstream
# repository is fetched at a pinned tag and its static libraries are built.
# Defines the target tutor::cmark_gfm (the core library and the extensions).
if(TARGET tutor::cmark_gfm)
  return()
endif()

find_path(TUTOR_CMARK_GFM_INCLUDE_DIR NAMES cmark-gfm-core-extensions.h)
find_library(TUTOR_CMARK_GFM_LIBRARY NAMES cmark-gfm)
find_library(TUTOR_CMARK_GFM_EXTENSIONS_LIBRARY NAMES cmark-gfm-extensions)

add_library(tutor_cmark_gfm INTERFACE)
add_library(tutor::cmark_gfm ALIAS tutor_cmark_gfm)
if(TUTOR_CMARK_GFM_INCLUDE_DIR AND TUTOR_CMARK_GFM_LIBRARY AND TUTOR_CMARK_GFM_EXTENSIONS_LIBRARY)
  message(STATUS "tutor: cmark-gfm found: ${TUTOR_CMARK_GFM_LIBRARY}")
  target_include_directories(tutor_cmark_gfm INTERFACE "${TUTOR_CMARK_GFM_INCLUDE_DIR}")
  target_link_libraries(tutor_cmark_gfm INTERFACE "${TUTOR_CMARK_GFM_EXTENSIONS_LIBRARY}" "${TUTOR_CMARK_GFM_LIBRARY}")
else()
  message(STATUS "tutor: cmark-gfm not installed: fetching it")
  include(FetchContent)
  set(CMARK_TESTS OFF CACHE BOOL "" FORCE)
  set(CMARK_SHARED OFF CACHE BOOL "" FORCE)
  set(CMARK_STATIC ON CACHE BOOL "" FORCE)
  FetchContent_Declare(cmark_gfm
    GIT_REPOSITORY https://github.com/github/cmark-gfm.git
    GIT_TAG 0.29.0.gfm.13)
  FetchContent_MakeAvailable(cmark_gfm)
  target_include_directories(tutor_cmark_gfm INTERFACE
    "${cmark_gfm_SOURCE_DIR}/src" "${cmark_gfm_BINARY_DIR}/src"
    "${cmark_gfm_SOURCE_DIR}/extensions" "${cmark_gfm_BINARY_DIR}/extensions")
  target_compile_definitions(tutor_cmark_gfm INTERFACE CMARK_GFM_STATIC_DEFINE CMARK_GFM_EXTENSIONS_STATIC_DEFINE)
  target_link_libraries(tutor_cmark_gfm INTERFACE libcmark-gfm-extensions_static libcmark-gfm_static)
endif()
