#pragma once
// One session step on the undo stack: undoing it moves the session to the revision before it, redoing to the one
// after. The Document pushes it once the step is done, so the first redo (from push) does nothing.

#include <QUndoCommand>

namespace fxs {

class Document;

class StepCommand : public QUndoCommand {
public:
    // `index` is the step's 0-based position in the session's history.
    StepCommand(Document *document, int index, const QString &text);

    void undo() override;
    void redo() override;
    int index() const { return m_index; }

private:
    Document *m_document;
    int m_index;
};

} // namespace fxs
