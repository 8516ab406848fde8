-- The documents list leaves out a form's filled copies unless asked for them: it looks
-- each document up among the responses by the copy it names.
CREATE INDEX form_responses_by_document ON form_responses (document);
