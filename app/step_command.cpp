#include "step_command.h"

#include "document.h"

namespace fxs {

StepCommand::StepCommand(Document *document, int index, const QString &text)
    : QUndoCommand(text), m_document(document), m_index(index)
{
}

void StepCommand::undo()
{
    if (!m_document->isSyncingUndoStack())
        m_document->goToRevision(m_index);
}

void StepCommand::redo()
{
    if (!m_document->isSyncingUndoStack())
        m_document->goToRevision(m_index + 1);
}

} // namespace fxs
