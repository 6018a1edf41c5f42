// B06 exercise "kv_pool": YOUR CODE. Fill in each TODO, then run
//   ./build-host/b06_exercise_kv_pool
// until every case passes (README.md in this folder walks through a start-up log).
#include "calculator.hpp"
#include "kv_pool.hpp"
#include "tutor/not_implemented.hpp"

namespace tutor::b06::exercise {

KvPoolAnswer kv_pool(const b05::ModelConfig& model, const EngineStartup& startup) {
  // TODO 1: the KV heads one GPU of the TP group stores. Fewer KV heads than GPUs? An MLA latent?
  // TODO 2: the pool per GPU: the budget (total x utilization) minus this GPU's weights (not just
  //         weights / TP: b05::weight_bytes_per_gpu in tensor_parallel.hpp keeps norms, routers and
  //         MLA down-projections whole on every rank), the activation
  //         peak, non-torch memory and the CUDA-graph estimate; pages = floor(pool / page bytes),
  //         a page being block_size tokens of every layer on this GPU.
  // TODO 3: the node's tokens, and the sequences: one sequence's pages (its window-capped KV bytes
  //         on this GPU over the page bytes, rounded up), no sequence past max_position_embeddings.
  (void)model;
  (void)startup;
  throw tutor::exercise::NotImplemented("kv_pool (KV heads per GPU, the pages of the pool, the sequences it holds)");
}

}  // namespace tutor::b06::exercise
