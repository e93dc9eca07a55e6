"""From a question to its candidate sources: the question's words (analysis), the full-text
index's view of them (lexical), candidates from both indexes, scored and fused (candidates),
and the best of them read sentence by sentence (refine); sentences.py reads a chunk's lines
as a person does.
"""
