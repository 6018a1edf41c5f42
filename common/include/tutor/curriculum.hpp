#pragma once
// PLACEHOLDER: the curriculum data model (data/curriculum.json) and its Markdown rendering.
