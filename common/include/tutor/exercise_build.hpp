#pragma once
// Which code a lab's exercise rows run: the stubs the learner edits in <module>/exercises/, or,
// in a build configured with -DTUTOR_EXERCISE_SOLUTIONS=ON (cmake/TutorAddLab.cmake
// defines the macro for the lab's targets), the worked solutions in exercises/solutions/.
// The constants have internal linkage on purpose: each translation unit reads the macro as its
// own target defines it, and only a lab's own files ask.
namespace tutor {

#ifdef TUTOR_EXERCISE_SOLUTIONS
static constexpr bool kExerciseSolutions = true;
static constexpr const char* kExerciseCode = "exercises/solutions/ (the worked solutions)";
#else
static constexpr bool kExerciseSolutions = false;
static constexpr const char* kExerciseCode = "exercises/ (the stubs the learner edits)";
#endif

/// What an exercise row's params say in a solutions build (the grader notes it).
static constexpr const char* kExerciseSolutionParams = "worked solution from exercises/solutions/";

}  // namespace tutor
