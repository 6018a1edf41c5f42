#pragma once
// B05 profile: the `b05_transformer profile` subcommand (profile_command.cpp). One decoder layer
// of a Llama-style model on the GPU, sub-op by sub-op, verified, timed and set beside the
// calculator's roofline prediction.
namespace tutor::b05 {

/// Runs `b05_transformer profile ...`: argv[1] is "profile", the options follow. Returns the exit
/// code (0 ok, 1 a check failed); throws UsageError (exit 2) and gpu::NoDevice (exit 3).
int run_profile(int argc, char** argv);

}  // namespace tutor::b05
