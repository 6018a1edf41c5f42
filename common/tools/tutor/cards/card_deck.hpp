#pragma once
// The recall cards: data/cards/<module id in lower case>.md, one file per module, parsed
// strictly (docs/STUDY.md, "Card files"). A card is a `## <id>` heading followed by the fields
// `Q:`, `A:`, `Source:` (required, in that order) and `Record:` (optional). A file that breaks
// a rule is refused with one line naming the file, the line and the card:
//   data/cards/a02.md:37: card a02-foo: no Source: line
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "tutor/cli.hpp"
#include "tutor/curriculum.hpp"

namespace tutor::cards {

/// A malformed card file (bad input: exit 2). The message is one line, "<file>:<line>: ...".
class CardFileError : public UsageError {
 public:
  using UsageError::UsageError;
};

/// One recall card. Question and answer are inline Markdown (`code`, **bold**, *italic*);
/// the lines of a paragraph are joined with a space and paragraphs with "\n\n".
struct RecallCard {
  std::string id;      ///< "a02-sector-bytes": stable forever, progress and Anki notes key on it
  std::string module;  ///< "A02"
  std::string question;
  std::string answer;
  std::vector<int> sources;  ///< numbers of the module README's "## 8. Sources" list, as cited
  std::string record;        ///< repository-relative path of a committed record, or ""
  std::string file;          ///< the card file, as it was named when read
  int line = 0;              ///< the line of the `## <id>` heading
  int source_line = 0;       ///< the line of `Source:`
  int record_line = 0;       ///< the line of `Record:` (0 when there is none)
};

/// One card file: the module its title names, and its cards in file order.
struct CardFile {
  std::string path;
  std::string module;  ///< "A02"
  std::vector<RecallCard> cards;
};

/// Every card file of a data folder, in the curriculum's module order.
struct Deck {
  std::vector<CardFile> files;

  /// The card with this id, or nullptr.
  const RecallCard* find(std::string_view id) const;
  /// Every card, in deck order (modules in curriculum order, cards in file order).
  std::vector<const RecallCard*> cards() const;
  /// The cards of one module, in file order (none when the module has no file).
  std::vector<const RecallCard*> cards_of(std::string_view module) const;
};

/// Parses the text of one card file. `path` is how messages name the file; `file_module` is
/// the module the file's name gives ("a02" for a02.md, any case). Throws CardFileError on the
/// first rule broken: no title, a title whose module id is not the file's or not in the
/// curriculum, a card without Q:/A:/Source:, an empty field, fields out of order or repeated,
/// a duplicate id, an id without the module prefix or with other characters than [a-z0-9-],
/// a Source: that is not [n] or [n, m], a Record: that is not a repository-relative path,
/// text where none may be, a tab or other control character, bytes that are not UTF-8, a
/// file without cards.
CardFile parse_card_file(std::string_view text, const std::string& path, std::string_view file_module,
                         const curriculum::Curriculum& curriculum);

/// Reads and parses every `<module>.md` of `cards_folder` (data/cards). A folder that does not
/// exist is an empty deck; README.md is skipped; any other file whose name is not a module id
/// in lower case with ".md" is refused (CardFileError). Ids are unique across the deck.
Deck load_deck(const std::filesystem::path& cards_folder, const curriculum::Curriculum& curriculum);

}  // namespace tutor::cards
